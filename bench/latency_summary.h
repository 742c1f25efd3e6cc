#pragma once

// Summary of a latency sample (one value per solve): mean, median, p99, max.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace motion_bench {

struct LatencySummary {
  std::size_t count = 0;
  double mean = 0.0;
  double median = 0.0;
  double p99 = 0.0;  ///< nearest rank: the smallest value >= 99 % of the sample
  double max = 0.0;
};

/// Nearest-rank percentile of a sorted, non-empty sample (fraction in (0, 1]).
inline double NearestRank(const std::vector<double>& sorted, double fraction) {
  const auto rank = static_cast<std::size_t>(std::ceil(fraction * sorted.size()));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

inline LatencySummary Summarize(std::vector<double> values) {
  LatencySummary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  const std::size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  s.p99 = NearestRank(values, 0.99);
  s.max = values.back();
  return s;
}

}  // namespace motion_bench
