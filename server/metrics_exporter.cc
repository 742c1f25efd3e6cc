#include "server/metrics_exporter.h"

#include <prometheus/gauge.h>

#include "absl/strings/str_cat.h"

namespace motion::server {

absl::StatusOr<std::unique_ptr<MetricsExporter>> MetricsExporter::Start(
    const std::string& address) {
  auto exporter = std::make_unique<MetricsExporter>();
  exporter->registry_ = std::make_shared<prometheus::Registry>();
  try {
    exporter->exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("--metrics_listen=", address, ": cannot listen: ", e.what()));
  }
  prometheus::BuildGauge()
      .Name("motiond_build_info")
      .Help("motiond build: version, compiler and architecture")
      .Register(*exporter->registry_)
      .Add({{"version", MOTIOND_VERSION},
            {"compiler", __VERSION__},
#if defined(__aarch64__)
            {"arch", "aarch64"}})
#else
            {"arch", "x86_64"}})
#endif
      .Set(1);
  exporter->exposer_->RegisterCollectable(exporter->registry_);
  return exporter;
}

}  // namespace motion::server
