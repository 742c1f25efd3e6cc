#pragma once

#include <vector>

#include "core/profile/path_profile.h"

namespace motion {

/// \brief The programmed timing of a Cartesian path (the TCP's own double-S
/// or trapezoid, before speed_override), tabulated: when it reaches a point
/// of the path and how fast it moves there, for diagnostics and
/// SPEED_REDUCED.
class ProgrammedSpeed {
 public:
  explicit ProgrammedSpeed(const PathProfile& profile);

  double duration() const { return t_.back(); }
  /// \brief sd^2 at sigma, linear between entries.
  double SpeedSquaredAt(double sigma) const { return Interpolate(sigma, x_); }
  /// \brief The time sigma is first reached.
  double TimeAt(double sigma) const { return Interpolate(sigma, t_); }

 private:
  double Interpolate(double sigma, const std::vector<double>& y) const;

  std::vector<double> t_, s_, x_;
};

}  // namespace motion
