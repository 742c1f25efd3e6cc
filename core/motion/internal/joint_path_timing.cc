#include "core/motion/internal/joint_path_timing.h"

#include <algorithm>
#include <cmath>

namespace motion {
namespace {

// `limits` with every joint's velocity, acceleration and jerk times
// `fraction`; torque limits stay.
std::vector<JointLimits> JointSpeedLimits(const std::vector<JointLimits>& limits, double fraction) {
  std::vector<JointLimits> scaled = limits;
  for (JointLimits& l : scaled) {
    l.max_velocity *= fraction;
    l.max_acceleration *= fraction;
    l.max_jerk *= fraction;
  }
  return scaled;
}

// `c` with other joint limits, everything else the same.
SegmentContext WithLimits(const SegmentContext& c, const std::vector<JointLimits>& limits) {
  SegmentContext out{c.model,      c.data,       limits,        c.profile,
                     c.start,      c.start_tcp,  c.sample_time, c.speed_override,
                     c.start_time, c.max_points, c.cancelled,   c.out,
                     c.continuous, c.completed,  c.collision,   c.planning_seconds_left,
                     c.dynamics,   c.payload,    c.gravity};
  out.continuous_from = c.continuous_from;
  return out;
}

}  // namespace

absl::Status SampleJointPathTiming(const JointCurve& curve,
                                   const std::vector<Eigen::VectorXd>& points,
                                   const SegmentContext& context, const SpeedSpec& speed,
                                   const SegmentReport& report, FastestSampling& out) {
  const std::vector<JointLimits> scaled =
      JointSpeedLimits(context.limits, speed.joint_fraction * context.speed_override);
  SegmentContext timed = WithLimits(context, scaled);
  timed.speed_override = 1.0;
  double hint = 0.0;  // at full speed on every leg: sizes the first grid
  for (std::size_t i = 1; i < points.size(); ++i) {
    double leg = 0.0;
    for (int j = 0; j < context.model.dof(); ++j) {
      leg = std::max(leg, std::abs(points[i][j] - points[i - 1][j]) / scaled[j].max_velocity);
    }
    hint += leg;
  }
  return SampleFastestTiming(curve, timed, speed, CartesianExtent{}, hint, report, out);
}

}  // namespace motion
