#pragma once

#include <memory>
#include <string>
#include <vector>

#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include "absl/status/statusor.h"

namespace motion::server {

/// \brief Serves a metrics registry as Prometheus text on its own port
/// (--metrics_listen), path /metrics, so scraping never competes with gRPC.
class MetricsExporter {
 public:
  static absl::StatusOr<std::unique_ptr<MetricsExporter>> Start(
      const std::string& address,
      const std::vector<std::shared_ptr<prometheus::Collectable>>& collectables);

 private:
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace motion::server
