#pragma once

#include "motion/v1/info.grpc.pb.h"
#include "server/rpc/service_env.h"
#include "server/runtime/server_options.h"

namespace motion::server {

/// \brief motion.v1.Info: what this server is (versions, architecture),
/// what it can do (capabilities) and every bound it enforces, so a client
/// can adapt instead of guessing.
class InfoService final : public v1::Info::CallbackService {
 public:
  InfoService(ServiceEnv env, const ServerOptions& options) : env_(env), options_(options) {}

  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const v1::GetServerInfoRequest* request,
                                          v1::GetServerInfoResponse* response) override;

 private:
  ServiceEnv env_;
  const ServerOptions& options_;
};

}  // namespace motion::server
