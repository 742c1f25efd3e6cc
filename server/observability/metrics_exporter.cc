#include "server/observability/metrics_exporter.h"

#include "absl/strings/str_cat.h"

namespace motion::server {

absl::StatusOr<std::unique_ptr<MetricsExporter>> MetricsExporter::Start(
    const std::string& address,
    const std::vector<std::shared_ptr<prometheus::Collectable>>& collectables) {
  auto exporter = std::make_unique<MetricsExporter>();
  try {
    exporter->exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("--metrics_listen=", address, ": cannot listen: ", e.what()));
  }
  for (const auto& collectable : collectables) exporter->exposer_->RegisterCollectable(collectable);
  return exporter;
}

}  // namespace motion::server
