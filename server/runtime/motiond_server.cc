#include "server/runtime/motiond_server.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "server/observability/metrics_interceptor.h"
#include "server/observability/rpc_log_interceptor.h"

namespace motion::server {
namespace {

int ResolveWorkers(int requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

absl::StatusOr<std::string> ReadFile(const std::string& path, absl::string_view flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat(flag, "=", path, ": cannot read"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(
    const TlsOptions& tls) {
  if (!tls.enabled()) {
    if (!tls.client_ca_file.empty()) {
      return absl::InvalidArgumentError("--tls_client_ca needs --tls_cert and --tls_key");
    }
    return grpc::InsecureServerCredentials();
  }
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return absl::InvalidArgumentError("TLS needs both --tls_cert and --tls_key");
  }
  absl::StatusOr<std::string> cert = ReadFile(tls.cert_file, "--tls_cert");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadFile(tls.key_file, "--tls_key");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions ssl(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  ssl.pem_key_cert_pairs.push_back({*key, *cert});
  if (!tls.client_ca_file.empty()) {
    absl::StatusOr<std::string> ca = ReadFile(tls.client_ca_file, "--tls_client_ca");
    if (!ca.ok()) return ca.status();
    ssl.pem_root_certs = *ca;
    ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

namespace {

// The options as the services read them: the message limit in the request
// limits too, so a service can refuse an answer that would not fit.
ServerOptions WithMessageLimitInRequestLimits(ServerOptions options) {
  options.limits.max_message_bytes = static_cast<std::size_t>(options.max_message_bytes);
  return options;
}

}  // namespace

ServiceEnv MotiondServer::Env() {
  return ServiceEnv{registry_,         pool_,   options_.limits,     metrics_,
                    collision_models_, scenes_, unsent_trajectories_};
}

MotiondServer::MotiondServer(const ServerOptions& options)
    : options_(WithMessageLimitInRequestLimits(options)),
      registry_(options.registry),
      pool_(ResolveWorkers(options.workers), options.max_queue, options.short_workers),
      unsent_trajectories_(options.max_unsent_trajectory_bytes),
      metrics_(std::make_shared<prometheus::Registry>(), registry_, pool_),
      registry_service_(Env()),
      kinematics_service_(Env()),
      planner_service_(Env()),
      geometry_service_(Env()),
      info_service_(Env(), options_) {}

MotiondServer::~MotiondServer() { Shutdown(std::chrono::milliseconds(0)); }

absl::StatusOr<std::unique_ptr<MotiondServer>> MotiondServer::Start(const ServerOptions& options) {
  std::unique_ptr<MotiondServer> server(new MotiondServer(options));
  if (!options.robots_dir.empty()) {
    if (auto status = server->PreloadRobots(options.robots_dir); !status.ok()) return status;
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      ServerCredentialsFor(options.tls);
  if (!credentials.ok()) return credentials.status();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, *credentials, &server->port_);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  // Calls beyond this per connection wait in the client (HTTP/2 flow
  // control) instead of piling up as server-side work.
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, options.max_concurrent_streams);
  // gRPC's own buffers (connections, messages being read or written) are
  // accounted against one quota: when clients push more than it holds, gRPC
  // slows them down and refuses new streams instead of growing without end.
  grpc::ResourceQuota quota("motiond");
  quota.Resize(options.grpc_memory_bytes);
  builder.SetResourceQuota(quota);
  builder.RegisterService(&server->registry_service_);
  builder.RegisterService(&server->kinematics_service_);
  builder.RegisterService(&server->planner_service_);
  builder.RegisterService(&server->geometry_service_);
  builder.RegisterService(&server->info_service_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  if (options.enable_metrics_interceptor) {
    interceptors.push_back(std::make_unique<MetricsInterceptorFactory>(server->metrics_));
  }
  interceptors.push_back(std::make_unique<RpcLogInterceptorFactory>());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server->server_ = builder.BuildAndStart();
  if (!server->server_ || server->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("--listen=", options.listen, ": could not bind (address in use or invalid?)"));
  }
  server->server_->GetHealthCheckService()->SetServingStatus(true);
  spdlog::info(
      "motiond listening on {} (port {}), {}, {} solver workers + {} for short calls, queue {}",
      options.listen, server->port_,
      !options.tls.enabled()               ? "plaintext"
      : options.tls.client_ca_file.empty() ? "TLS"
                                           : "mTLS",
      server->pool_.workers(), server->pool_.short_workers(), options.max_queue);
  return server;
}

absl::Status MotiondServer::PreloadRobots(const std::string& dir) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".urdf") files.push_back(entry.path());
  }
  if (error) {
    return absl::InvalidArgumentError(
        absl::StrCat("--robots_dir=", dir, ": cannot read: ", error.message()));
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<RegisteredRobot> robot = registry_.Register(text.str());
    if (!robot.ok()) {
      // One broken file must not take the whole service down.
      spdlog::error("--robots_dir: {} not loaded: {}", path.string(), robot.status().ToString());
      continue;
    }
    const auto& chain = robot->model->default_chain();
    spdlog::info("preloaded {} ({}) {} -> {} as {}", path.filename().string(), robot->model->name(),
                 chain.base_link, chain.tip_link, robot->robot_id);
  }
  return absl::OkStatus();
}

void MotiondServer::Shutdown(std::chrono::milliseconds grace) {
  if (shut_down_) return;
  shut_down_ = true;
  if (server_) {
    server_->GetHealthCheckService()->SetServingStatus(false);
    // Calls still running when `grace` is over are cancelled; their pool tasks
    // still run (and finish the reactors), so the pool must outlive this.
    server_->Shutdown(std::chrono::system_clock::now() + grace);
  }
  pool_.Stop();
  spdlog::info("motiond stopped");
}

}  // namespace motion::server
