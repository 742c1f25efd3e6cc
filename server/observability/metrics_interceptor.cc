#include "server/observability/metrics_interceptor.h"

#include <chrono>
#include <string>

#include "proto/motion/v1/wire_constants.h"

namespace motion::server {
namespace {

using Hook = grpc::experimental::InterceptionHookPoints;

const char* TypeName(grpc::experimental::ServerRpcInfo::Type type) {
  switch (type) {
    case grpc::experimental::ServerRpcInfo::Type::UNARY:
      return "unary";
    case grpc::experimental::ServerRpcInfo::Type::CLIENT_STREAMING:
      return "client_stream";
    case grpc::experimental::ServerRpcInfo::Type::SERVER_STREAMING:
      return "server_stream";
    case grpc::experimental::ServerRpcInfo::Type::BIDI_STREAMING:
      return "bidi_stream";
  }
  return "unknown";
}

class MetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(ServerMetrics& metrics, grpc::experimental::ServerRpcInfo* info)
      : metrics_(metrics), type_(TypeName(info->type())), start_(std::chrono::steady_clock::now()) {
    // "/motion.v1.Kinematics/ComputeFk" -> service, method
    const std::string full = info->method() ? info->method() : "";
    const auto slash = full.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      service_ = full.substr(1, slash - 1);
      method_ = full.substr(slash + 1);
    } else {
      service_ = "unknown";
      method_ = full;
    }
    m_ = &metrics_.ForMethod(service_, method_, type_);
    m_->started->Increment();
  }

  ~MetricsInterceptor() override {
    if (!handled_) Record(static_cast<int>(grpc::StatusCode::CANCELLED));
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(Hook::POST_RECV_MESSAGE)) {
      m_->received->Increment();
    }
    if (methods->QueryInterceptionHookPoint(Hook::PRE_SEND_MESSAGE)) {
      m_->sent->Increment();
    }
    if (methods->QueryInterceptionHookPoint(Hook::PRE_SEND_STATUS) && !handled_) {
      Record(static_cast<int>(methods->GetSendStatus().error_code()));
    }
    methods->Proceed();
  }

 private:
  void Record(int code) {
    handled_ = true;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    metrics_.RecordRpcHandled(*m_, code, v1::GrpcCodeName(static_cast<grpc::StatusCode>(code)),
                              seconds);
  }

  ServerMetrics& metrics_;
  std::string service_, method_;
  const char* type_;
  std::chrono::steady_clock::time_point start_;
  bool handled_ = false;
  ServerMetrics::MethodMetrics* m_ = nullptr;
};

}  // namespace

grpc::experimental::Interceptor* MetricsInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new MetricsInterceptor(metrics_, info);
}

}  // namespace motion::server
