#include "core/dynamics/trajectory_torque.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/dynamics/inverse_dynamics.h"

namespace motion {

TorqueRatio SampledTorqueRatio(const ChainModel& model, DynamicsData& data,
                               const std::vector<JointLimits>& limits,
                               const std::vector<double>& positions, double dt,
                               const Eigen::Vector3d& gravity, const Payload& payload,
                               std::int64_t first, std::int64_t count,
                               std::vector<double>* torques) {
  TorqueRatio worst;
  const int dof = model.dof();
  if (dof == 0) return worst;
  const std::int64_t n = static_cast<std::int64_t>(positions.size()) / dof;
  first = std::clamp<std::int64_t>(first, 0, n);
  const std::int64_t end = count < 0 ? n : std::min(n, first + count);
  if (torques != nullptr) torques->assign(static_cast<std::size_t>((end - first) * dof), 0.0);

  Eigen::VectorXd& qd = data.velocity_scratch;
  Eigen::VectorXd& qdd = data.acceleration_scratch;
  Eigen::VectorXd& tau = data.torque_scratch;
  for (std::int64_t i = first; i < end; ++i) {
    const Eigen::Map<const Eigen::VectorXd> here(positions.data() + i * dof, dof);
    CentralDifferences(positions, dof, dt, i, qd, qdd);
    InverseDynamics(model, data, here, qd, qdd, gravity, payload, tau);
    if (torques != nullptr) {
      std::copy(tau.data(), tau.data() + dof, torques->begin() + (i - first) * dof);
    }
    for (int j = 0; j < dof; ++j) {
      const double limit = limits[j].max_torque;
      if (!(limit > 0)) continue;
      const double ratio = std::abs(tau[j]) / limit;
      if (ratio > worst.ratio || worst.dof < 0) {
        worst = {ratio, j, i, tau[j], limit};
      }
    }
  }
  return worst;
}

void CentralDifferences(const std::vector<double>& positions, int dof, double dt, std::int64_t i,
                        Eigen::VectorXd& qd, Eigen::VectorXd& qdd) {
  const std::int64_t n = static_cast<std::int64_t>(positions.size()) / dof;
  auto at = [&](std::int64_t k) {  // at rest outside the samples
    k = std::clamp<std::int64_t>(k, 0, n - 1);
    return Eigen::Map<const Eigen::VectorXd>(positions.data() + k * dof, dof);
  };
  const auto before = at(i - 1), here = at(i), after = at(i + 1);
  qd = (after - before) / (2.0 * dt);
  qdd = (after - 2.0 * here + before) / (dt * dt);
}

std::optional<Diagnostic> TorqueLimitError(const ChainModel& model, const TorqueRatio& worst,
                                           std::int64_t first_index, double tolerance) {
  if (worst.dof < 0 || !(worst.ratio > 1.0 + tolerance)) return std::nullopt;
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = DiagnosticCode::kTorqueLimit;
  d.joint_name = model.dof_names[worst.dof];
  d.value = std::abs(worst.torque);
  d.limit = worst.limit;
  d.point_index = first_index + worst.sample;
  const bool prismatic = model.dof_types[worst.dof] == JointType::kPrismatic;
  d.message = absl::StrCat("joint ", QuoteUntrusted(d.joint_name), " needs ", d.value,
                           prismatic ? " N" : " N*m", " at sample ", d.point_index,
                           ", more than its max_torque ", d.limit, " (", worst.ratio, " x)");
  return d;
}

}  // namespace motion
