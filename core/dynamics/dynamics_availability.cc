#include "core/dynamics/dynamics_availability.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/dynamics/inverse_dynamics.h"
#include "core/model/effort_acceleration.h"

namespace motion {

std::string MissingDynamicsData(const ChainModel& model, const std::vector<JointLimits>& limits) {
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ChainJoint& joint = model.joints[k];
    if (!(model.bodies[k].mass > 0)) {
      // The joint's child link is the first link placed after it.
      const auto link = std::find_if(model.links.begin(), model.links.end(),
                                     [&](const ChainLink& l) { return l.after_joint == int(k); });
      return absl::StrCat("link ", QuoteUntrusted(link == model.links.end() ? "" : link->name),
                          " (moved by joint ", QuoteUntrusted(joint.name),
                          ") has no <inertial> or zero mass");
    }
    if (!(limits[joint.dof].max_torque > 0)) {
      return absl::StrCat("joint ", QuoteUntrusted(model.dof_names[joint.dof]),
                          " has no effort limit (URDF effort is 0, no max_torque override)");
    }
  }
  return {};
}

std::optional<GravityShortfall> GravityTorqueShortfall(const ChainModel& model,
                                                       const std::vector<JointLimits>& limits,
                                                       const Eigen::Vector3d& gravity) {
  const int dof = model.dof();
  Eigen::VectorXd zero_pose = Eigen::VectorXd::Zero(dof), mid_range = Eigen::VectorXd::Zero(dof);
  for (int i = 0; i < dof; ++i) {
    const JointLimits& l = limits[i];
    if (!l.bounded) continue;
    zero_pose[i] = std::clamp(0.0, l.lower, l.upper);
    mid_range[i] = 0.5 * (l.lower + l.upper);
  }
  DynamicsData data(model);
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(dof);
  Eigen::VectorXd tau(dof);
  const std::pair<const char*, const Eigen::VectorXd*> poses[] = {{"zero", &zero_pose},
                                                                  {"mid-range", &mid_range}};
  for (const auto& [name, q] : poses) {
    InverseDynamics(model, data, *q, rest, rest, gravity, Payload{}, tau);
    for (int i = 0; i < dof; ++i) {
      if (limits[i].max_torque > 0 && std::abs(tau[i]) > limits[i].max_torque) {
        return GravityShortfall{i, name, std::abs(tau[i]), limits[i].max_torque};
      }
    }
  }
  return std::nullopt;
}

std::optional<Diagnostic> DynamicsUnavailableWarning(const ChainModel& model,
                                                     const std::vector<JointLimits>& limits,
                                                     const Eigen::Vector3d& gravity,
                                                     bool has_payload) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = DiagnosticCode::kDynamicsUnavailable;
  std::string why = MissingDynamicsData(model, limits);
  if (why.empty()) {
    const std::optional<GravityShortfall> shortfall =
        GravityTorqueShortfall(model, limits, gravity);
    if (!shortfall) return std::nullopt;
    d.joint_name = model.dof_names[shortfall->dof];
    d.value = shortfall->torque;
    d.limit = shortfall->limit;
    why = absl::StrCat("the effort of joint ", QuoteUntrusted(d.joint_name), " (", shortfall->limit,
                       ") cannot hold the arm against gravity in the ", shortfall->configuration,
                       " pose (", shortfall->torque,
                       " needed), so the URDF's efforts look like placeholders");
  }
  // The chain's accelerations came from its efforts only if its URDF had all the data.
  const bool from_effort = std::any_of(limits.begin(), limits.end(), AccelerationFromEffort);
  d.message = absl::StrCat("dynamics unavailable: ", why, "; joint torque is not checked and ",
                           from_effort ? "accelerations stay those the URDF's efforts allow"
                                       : "accelerations keep their documented defaults",
                           has_payload ? "; the payload is not taken into account" : "");
  return d;
}

}  // namespace motion
