#pragma once

#include <Eigen/Geometry>

#include "core/ik/ik_data.h"
#include "core/ik/internal/pose_error.h"
#include "core/model/chain_model.h"

namespace motion {

struct LevenbergMarquardtSettings {
  double position_tolerance = 1e-5;
  double orientation_tolerance = 1e-5;
  int max_iterations = 100;  ///< FK evaluations in this attempt, at most
  /// A descent is abandoned as stalled when its weighted cost has not halved
  /// over the last `stall_window` evaluations: a converging descent keeps
  /// halving it (quadratically near the end), one crawling along a limit or
  /// into a local minimum does not, and a fresh start is cheaper.
  int stall_window = 40;
  bool enforce_limits = true;  ///< false: search without joint limits (diagnosis)
  /// Metres per radian in the cost |dp|^2 + (w |dtheta|)^2: rotation errors
  /// are weighed like position errors at that lever arm.
  double rotation_weight = 0.5;
};

struct LevenbergMarquardtAttempt {
  bool converged = false;
  PoseError error;
  int iterations = 0;
  Eigen::Isometry3d tcp = Eigen::Isometry3d::Identity();  ///< TCP at the final data.q
};

/// \brief One damped-least-squares descent from data.q towards `target`
/// (TCP pose in the base frame; TCP = tip * tool).
///
/// Each iteration solves (J^T W J + lambda I) dq = J^T W e with the
/// geometric Jacobian J at the TCP and e the 6-D pose error (pose_error.h),
/// tries q + dq (moved inside the limits by whole turns, then clamped, when
/// `enforce_limits`), and accepts it only if the weighted error drops;
/// lambda shrinks after a success and grows tenfold after a failure, so the
/// step goes from gradient descent far away to Gauss-Newton (quadratic
/// convergence) near a solution. Convergence is tested on the accepted q
/// itself, with the strict tolerances, so the returned joints are exactly
/// the ones that were checked. Leaves the last accepted q in data.q.
LevenbergMarquardtAttempt RunLevenbergMarquardt(const ChainModel& model, IkData& data,
                                                const Eigen::Isometry3d& target,
                                                const Eigen::Isometry3d& tool,
                                                const LevenbergMarquardtSettings& settings);

}  // namespace motion
