#pragma once

#include <memory>
#include <string>

#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include "absl/status/statusor.h"

namespace motion::server {

/// \brief The Prometheus /metrics endpoint on its own port (--metrics_listen).
/// For now it exports motiond_build_info; request and solver metrics are
/// registered on `registry()` as they are added.
class MetricsExporter {
 public:
  static absl::StatusOr<std::unique_ptr<MetricsExporter>> Start(const std::string& address);
  prometheus::Registry& registry() { return *registry_; }

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace motion::server
