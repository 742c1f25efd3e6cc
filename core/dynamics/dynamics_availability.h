#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/diagnostics/diagnostic.h"
#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"

namespace motion {

/// \brief What keeps inverse dynamics from being used as a limit on `model`, the first along
/// the chain base -> tip: a moving body without mass (no URDF `<inertial>`), or a DOF whose
/// max_torque in `limits` (URDF effort or override) is 0. Empty when both are complete.
std::string MissingDynamicsData(const ChainModel& model, const std::vector<JointLimits>& limits);

/// \brief A DOF whose effort cannot hold the arm (without payload) against gravity.
struct GravityShortfall {
  int dof = -1;
  std::string configuration;  ///< "zero" or "mid-range"
  double torque = 0.0;        ///< |static gravity torque| there, N*m or N
  double limit = 0.0;         ///< the DOF's max_torque
};

/// \brief Placeholder efforts (a URDF that says 1 N*m on every joint) are told apart from real
/// ones by asking whether they hold the arm still: the static gravity torque g(q) is computed at
/// two configurations and compared with each DOF's max_torque. The configurations are q = 0
/// (clamped into the limits) — the URDF's reference pose, for most arms (UR, ABB, FANUC, KUKA
/// industrial) the one with the upper arm or forearm horizontal, where the shoulder torque is
/// near its maximum — and the mid-range pose (the centre of each DOF's limits, 0 for continuous
/// DOF), the pose the IK seeds from, which covers arms whose zero pose is upright (Panda, iiwa).
/// A real arm holds itself at both. The first DOF exceeding its limit, zero before mid-range and
/// base to tip, is returned; DOF with max_torque 0 (unknown) are skipped. Needs body masses
/// (MissingDynamicsData); on a chain without them the torques are just smaller.
std::optional<GravityShortfall> GravityTorqueShortfall(const ChainModel& model,
                                                       const std::vector<JointLimits>& limits,
                                                       const Eigen::Vector3d& gravity);

/// \brief The DYNAMICS_UNAVAILABLE warning of a request on `model`, or nothing when inverse
/// dynamics can be enforced (every body has mass, every DOF an effort that holds the arm against
/// `gravity`). The message names the first link or joint that lacks the data (or the joint whose
/// effort is implausible, with the torques) and says what happens instead: torque is not checked
/// and accelerations stay the chain's (the documented defaults, or what the URDF's efforts allow
/// when a request's override or gravity made them implausible); `has_payload` adds that the
/// payload cannot be taken into account. joint_name/value/limit are set for an implausible effort.
std::optional<Diagnostic> DynamicsUnavailableWarning(const ChainModel& model,
                                                     const std::vector<JointLimits>& limits,
                                                     const Eigen::Vector3d& gravity,
                                                     bool has_payload);

}  // namespace motion
