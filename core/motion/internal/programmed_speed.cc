#include "core/motion/internal/programmed_speed.h"

#include <algorithm>

namespace motion {
namespace {

// Entries of the table.
constexpr int kProgrammedTable = 1024;

}  // namespace

ProgrammedSpeed::ProgrammedSpeed(const PathProfile& profile) {
  const double duration = profile.duration();
  const int n = duration > 0 ? kProgrammedTable : 1;
  for (int i = 0; i <= n; ++i) {
    const double t = duration * i / n;
    const PathProfile::State st = profile.At(t);
    t_.push_back(t);
    s_.push_back(i == n ? 1.0 : std::min(st.s, 1.0));
    x_.push_back(i == n ? 0.0 : st.sd * st.sd);
  }
}

double ProgrammedSpeed::Interpolate(double sigma, const std::vector<double>& y) const {
  const auto it = std::lower_bound(s_.begin(), s_.end(), sigma);
  if (it == s_.begin()) return y.front();
  if (it == s_.end()) return y.back();
  const std::size_t i = static_cast<std::size_t>(it - s_.begin());
  const double w = (sigma - s_[i - 1]) / std::max(s_[i] - s_[i - 1], 1e-300);
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

}  // namespace motion
