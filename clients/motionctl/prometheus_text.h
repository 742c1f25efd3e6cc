#pragma once

#include <map>
#include <string>
#include <vector>

namespace motionctl {

/// \brief One sample of the Prometheus text exposition format (0.0.4):
/// `name{label="value",...} value [timestamp]`.
struct MetricSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;

  /// \brief The label's value, "" when absent (as PromQL treats it).
  std::string Label(const std::string& key) const;
};

/// \brief A parsed /metrics page: samples in order, and `# TYPE` per family.
struct MetricsPage {
  std::vector<MetricSample> samples;
  std::map<std::string, std::string> types;

  /// \brief Sum of the samples named `name` whose labels include `match`.
  double Sum(const std::string& name, const std::map<std::string, std::string>& match = {}) const;
  /// \brief Samples named `name`.
  std::vector<const MetricSample*> Find(const std::string& name) const;
};

/// \brief Parses the text format; false with the line number and reason in `error`.
bool ParseMetricsText(const std::string& text, MetricsPage* page, std::string* error);

/// \brief One cumulative histogram bucket: observations <= upper_bound.
struct HistogramBucket {
  double upper_bound;
  double count;
};

/// \brief The q-quantile estimated from cumulative buckets by linear
/// interpolation inside the bucket that holds it — the algorithm of
/// PromQL's histogram_quantile (Prometheus 2.x bucketQuantile), so the
/// figures agree with a dashboard: NaN without observations or without a
/// +Inf bucket; the upper bound of the last finite bucket when the quantile
/// falls into +Inf; the lowest bucket interpolates from 0.
double HistogramQuantile(double q, std::vector<HistogramBucket> buckets);

}  // namespace motionctl
