#pragma once

// Shared by the MoveJ / MoveL / MoveC / PlanPath tests: a bundled robot's
// default chain with its test-side twin (../independent_fk.h) and the limits
// as written in the URDF, the checks and closed forms that judge a returned
// trajectory, and small builders. Planned joints are judged with the
// test-side URDF FK, never with core's.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/diagnostics/diagnostic.h"
#include "core/geometry/pose.h"
#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"
#include "independent_fk.h"
#include "unit_test_support.h"

namespace motion_test {

/// A bundled robot's default chain, core's and the independent one.
struct Robot {
  std::shared_ptr<const motion::ChainModel> chain;
  std::shared_ptr<const UrdfSpec> spec;  // ichain points into it
  IndependentChain ichain;
  std::vector<double> velocity_limit;  // from the URDF text, per DOF
  std::vector<double> lower, upper;
};

/// Loads `file`; on failure records a test failure and returns a robot
/// without a chain.
inline Robot LoadRobot(const std::string& file) {
  Robot r;
  r.chain = LoadChain(file);
  if (r.chain == nullptr) return r;
  r.spec = std::make_shared<const UrdfSpec>(ReadRobotSpec(file));
  r.ichain = WalkChain(*r.spec, r.chain->base_link, r.chain->tip_link);
  // Same DOF order on both sides, so joint vectors mean the same thing.
  EXPECT_EQ(r.ichain.dof_names, r.chain->dof_names) << file;
  for (int i = 0; i < static_cast<int>(r.ichain.dof_names.size()); ++i) {
    const UrdfJointSpec& j = DofJoint(*r.spec, r.ichain, i);
    r.velocity_limit.push_back(j.velocity);
    r.lower.push_back(j.lower);
    r.upper.push_back(j.upper);
  }
  return r;
}

inline std::vector<double> Std(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

inline motion::Pose ToPose(const Eigen::Isometry3d& t) { return motion::Pose::FromIsometry(t); }

inline motion::Pose ToPose(const Eigen::Vector3d& p, const Eigen::Matrix3d& r) {
  motion::Pose out;
  out.position = p;
  out.orientation = Eigen::Quaterniond(r);
  return out;
}

/// Whether a diagnostic with `code` (for `segment_id`, if given) is present.
/// A random MoveL (`line`) or MoveC from the pose `at` (which becomes its
/// target): the line's target `line_reach` (m) away along each axis at most,
/// the arc's via and target `arc_reach` each; speed v_min + v_span * U(0, 1).
/// Draws in that order, so programs built with it stay reproducible.
template <typename Rng>
motion::MotionSegment RandomCartesianSegment(Rng& rng, bool line, Eigen::Isometry3d& at,
                                             double line_reach, double arc_reach, double v_min,
                                             double v_span) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  auto shifted = [&](double reach) {
    Eigen::Isometry3d t = at;
    t.translation() += reach * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    return t;
  };
  motion::MotionSegment segment;
  if (line) {
    segment.kind = motion::MotionKind::kMoveL;
    at = shifted(line_reach);
  } else {
    segment.kind = motion::MotionKind::kMoveC;
    segment.via = ToPose(shifted(arc_reach));
    at = shifted(arc_reach);
  }
  segment.target = ToPose(at);
  segment.speed.linear_velocity = v_min + v_span * std::abs(unit(rng));
  return segment;
}

inline bool HasCode(const std::vector<motion::Diagnostic>& diagnostics, motion::DiagnosticCode code,
                    const std::string& segment_id = "") {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const motion::Diagnostic& d) {
    return d.code == code && (segment_id.empty() || d.segment_id == segment_id);
  });
}

// Joint rates from the returned positions alone: finite-difference speeds
// within the URDF velocity limits, and on the uniformly spaced interior,
// second differences within the acceleration limits (RobotInfo's; the URDF
// has none). IK noise (~1e-7 rad) adds a few 0.01 rad/s^2 at 4 ms.
inline void CheckJointRates(const Robot& robot, const motion::Trajectory& t) {
  const int dof = robot.chain->dof();
  std::vector<double> v_max(dof);
  for (int j = 0; j < dof; ++j) v_max[j] = DofJoint(*robot.spec, robot.ichain, j).velocity;
  double worst_v = 0, worst_a = 0;
  for (std::size_t k = 1; k < t.size(); ++k) {
    const double h1 = t.time[k] - t.time[k - 1];
    for (int j = 0; j < dof; ++j) {
      const double dq1 = t.positions[k * dof + j] - t.positions[(k - 1) * dof + j];
      worst_v = std::max(worst_v, std::abs(dq1) / h1 / v_max[j]);
      if (k + 1 >= t.size()) continue;
      const double h2 = t.time[k + 1] - t.time[k];
      if (std::abs(h2 - h1) > 1e-9) continue;
      const double dq2 = t.positions[(k + 1) * dof + j] - t.positions[k * dof + j];
      const double qdd = (dq2 - dq1) / (h1 * h1);
      worst_a =
          std::max(worst_a, (std::abs(qdd) - 0.05) / robot.chain->dof_limits[j].max_acceleration);
    }
  }
  EXPECT_LE(worst_v, 1.001) << "joint speed / limit";
  EXPECT_LE(worst_a, 1.0) << "joint acceleration / limit";
}

/// Joint rates of returned positions as a controller sees them: first,
/// second and third divided differences on the grid.
struct RateCheck {
  double velocity = 0, acceleration = 0, jerk = 0;  // worst ratio to the limit
};

// Rates of the returned positions, at rest before the first and after the
// last sample, against `limits`.
inline RateCheck MeasureRates(const motion::Trajectory& t,
                              const std::vector<motion::JointLimits>& limits, double dt) {
  RateCheck out;
  const long n = static_cast<long>(t.size());
  for (int j = 0; j < t.dof; ++j) {
    auto q = [&](long k) { return t.positions[std::clamp(k, 0L, n - 1) * t.dof + j]; };
    for (long k = 0; k <= n; ++k) {
      out.velocity =
          std::max(out.velocity, std::abs(q(k) - q(k - 1)) / dt / limits[j].max_velocity);
      out.acceleration = std::max(out.acceleration, std::abs(q(k + 1) - 2 * q(k) + q(k - 1)) /
                                                        (dt * dt) / limits[j].max_acceleration);
      out.jerk = std::max(out.jerk, std::abs(q(k + 1) - 3 * q(k) + 3 * q(k - 1) - q(k - 2)) /
                                        (dt * dt * dt) / limits[j].max_jerk);
    }
  }
  return out;
}

// The velocities and accelerations the trajectory states at its samples
// (what a controller may feed forward), as worst ratios to `limits`.
inline RateCheck MeasureStatedRates(const motion::Trajectory& t,
                                    const std::vector<motion::JointLimits>& limits) {
  RateCheck out;
  for (std::size_t k = 0; k < t.size(); ++k) {
    for (int j = 0; j < t.dof; ++j) {
      const std::size_t at = k * static_cast<std::size_t>(t.dof) + static_cast<std::size_t>(j);
      out.velocity = std::max(out.velocity, std::abs(t.velocities[at]) / limits[j].max_velocity);
      out.acceleration =
          std::max(out.acceleration, std::abs(t.accelerations[at]) / limits[j].max_acceleration);
    }
  }
  return out;
}

inline void ExpectOnGrid(const motion::Trajectory& t, double dt) {
  for (std::size_t k = 0; k < t.size(); ++k) {
    ASSERT_NEAR(t.time[k], static_cast<double>(k) * dt, 1e-12 * std::max(1.0, t.time[k]))
        << "sample " << k << " is off the grid";
  }
}

// Rest-to-rest trapezoid over [0, 1] in closed form.
// With `grid` > 0, as the planner plays it: stretched in time to end on a
// whole number of sample times, s(t) = S0(k t) with k = T0 / T <= 1 (every
// speed times k, every acceleration times k^2).
struct UnitTrapezoid {
  double v, a, ta, tc;
  double k = 1.0;  ///< time scale of the stretch to the grid
  UnitTrapezoid(double max_v, double max_a, double grid = 0.0) : v(max_v), a(max_a) {
    if (v * v / a > 1.0) v = std::sqrt(a);  // triangle: peak sqrt(a L), L = 1
    ta = v / a;
    tc = std::max(0.0, (1.0 - v * v / a) / v);
    if (grid > 0) k = OwnDuration() / (std::ceil(OwnDuration() / grid - 1e-9) * grid);
  }
  double OwnDuration() const { return 2 * ta + tc; }
  double duration() const { return OwnDuration() / k; }
  double accel_time() const { return ta / k; }  ///< as played
  double S(double t) const {
    t = std::clamp(t * k, 0.0, OwnDuration());
    if (t <= ta) return 0.5 * a * t * t;
    if (t <= ta + tc) return 0.5 * a * ta * ta + v * (t - ta);
    const double r = OwnDuration() - t;
    return 1.0 - 0.5 * a * r * r;
  }
};

// Geodesic interpolation R0 exp(s log(R0^T R1)), from the axis-angle of the
// relative rotation (not Eigen's quaternion slerp).
inline Eigen::Matrix3d Geodesic(const Eigen::Matrix3d& r0, const Eigen::Matrix3d& r1, double s) {
  const Eigen::AngleAxisd relative(Eigen::Matrix3d(r0.transpose() * r1));
  return r0 * Eigen::AngleAxisd(s * relative.angle(), relative.axis()).toRotationMatrix();
}

}  // namespace motion_test
