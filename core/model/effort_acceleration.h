#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"

namespace motion {

/// \brief Per DOF, the acceleration its effort (max_torque) gives it from rest in the worst of a
/// fixed set of poses, without payload, after holding the arm against `gravity`:
///   a_i = min over poses q of (max_torque_i - |g_i(q)|) / M_ii(q),
/// with g the gravity torque and M the joint-space inertia of the chain's bodies (URDF
/// inertials). 0 for every DOF when that cannot be said: a DOF without effort, a massless body,
/// or a pose where gravity alone needs a DOF's whole effort (placeholder efforts).
///
/// The poses: the zero pose (clamped into the limits), the mid-range pose and
/// kEffortAccelerationPoses points of a Halton sequence over the position limits (continuous
/// joints over one turn), deterministic and spread evenly; then, per DOF, a pattern search from
/// its worst sample down to 0.01 rad steps finds the stretched-out pose where gravity and
/// inertia peak. It is a search, not a proof (a local minimum can hide a lower one); torque
/// stays a limit of every timing, so the value only sets how hard a motion is planned to push.
///
/// g and the diagonal of M come from composite bodies (everything beyond joint k, as one rigid
/// body in the pose): g_k = axis . ((c - o_k) x m gravity), M_kk = axis^T I_{o_k} axis for a
/// revolute joint at o_k; m gravity . axis and m for a prismatic one. A DOF moved by several
/// joints (mimic) sums their gravity torques and takes (sum |multiplier_k| sqrt(M_kk))^2, an
/// upper bound of its inertia (Cauchy-Schwarz). Cost: about 5 ms for a 7-DOF arm, once per
/// chain; long chains get fewer poses and less search, so no chain takes more than ~25 ms.
inline constexpr int kEffortAccelerationPoses = 512;
std::vector<double> EffortAccelerations(const ChainModel& model,
                                        const std::vector<JointLimits>& limits,
                                        const Eigen::Vector3d& gravity);

/// \brief Gives every DOF of `limits` whose acceleration is still the 2 x velocity default the
/// acceleration of EffortAccelerations (with kDefaultGravity), at most kMaxAccelerationPerVelocity
/// x max_velocity, and the jerk that goes with it (kDefaultJerkPerAcceleration x that, unless
/// the jerk was given). acceleration_source says which: "effort: 22.9 rad/s^2 in the worst pose
/// (URDF inertials and efforts, no payload)" or "effort: 1633.9 rad/s^2 in the worst pose, capped
/// at 10 x max_velocity per second". Nothing changes where EffortAccelerations says 0.
void UseEffortAccelerations(const ChainModel& model, std::vector<JointLimits>& limits);

/// What acceleration_source starts with when UseEffortAccelerations set it.
inline constexpr char kEffortAccelerationSource[] = "effort: ";

/// \brief True when `limits`' acceleration came from the URDF's effort (UseEffortAccelerations).
inline bool AccelerationFromEffort(const JointLimits& limits) {
  return limits.acceleration_source.rfind(kEffortAccelerationSource, 0) == 0;
}

}  // namespace motion
