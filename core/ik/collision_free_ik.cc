#include "core/ik/collision_free_ik.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"

namespace motion {
namespace {

// The residual and conditioning of `q` as an answer to `target`.
void MeasureAnswer(const ChainModel& model, IkData& data, const Pose& target, const Pose& tool,
                   IkResult& result) {
  const Eigen::Isometry3d reached =
      ForwardKinematics(model, data.kinematics, result.joints) * tool.ToIsometry();
  const Eigen::Isometry3d wanted = target.ToIsometry();
  result.position_error = (reached.translation() - wanted.translation()).norm();
  result.orientation_error =
      Eigen::AngleAxisd(reached.linear().transpose() * wanted.linear()).angle();
  Jacobian jacobian;
  ComputeJacobian(model, data.kinematics, result.joints, tool.ToIsometry(), jacobian);
  const JacobianMeasures measures = MeasureJacobian(jacobian);
  result.min_singular_value =
      measures.singular_values.size() ? measures.singular_values.tail<1>()[0] : 0.0;
}

}  // namespace

absl::StatusOr<IkResult> SolveCollisionFreeIk(const ChainModel& model, IkData& data,
                                              const Pose& target, const Pose& tool,
                                              const std::vector<double>& seed, IkOptions options,
                                              const IkCollisionCheck& check) {
  const IkMode asked = options.mode;
  options.mode = IkMode::kAll;
  options.max_solutions = std::max(options.max_solutions, 16);
  absl::StatusOr<IkResult> solved = SolveIk(model, data, target, tool, seed, options);
  if (!solved.ok()) return solved.status();
  IkResult result = *std::move(solved);
  std::vector<Eigen::VectorXd> candidates = result.solutions;
  std::vector<RobotConfiguration> configurations = result.solution_configurations;
  if (candidates.empty() && result.ok) {
    candidates.push_back(result.joints);
    configurations.push_back(result.configuration);
  }
  if (candidates.empty()) return result;  // no solution at all: IK's own answer

  std::vector<Eigen::VectorXd> clear;
  std::vector<RobotConfiguration> clear_configurations;
  std::vector<Contact> closest_contacts;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    CollisionVerdict verdict = CheckCollision(model, data.kinematics, check.robot, check.scene,
                                              candidates[i], check.query);
    if (!verdict.in_collision) {
      clear.push_back(candidates[i]);
      if (i < configurations.size()) clear_configurations.push_back(configurations[i]);
    } else if (closest_contacts.empty()) {
      closest_contacts = std::move(verdict.contacts);
    }
  }
  if (clear.empty()) {
    result.ok = false;
    result.outcome = IkOutcome::kInCollision;
    result.joints = candidates.front();
    if (!configurations.empty()) result.configuration = configurations.front();
    result.solutions.clear();
    result.solution_configurations.clear();
    const Contact& c = closest_contacts.front();
    Diagnostic d;
    d.severity = Severity::kError;
    d.code = DiagnosticCode::kCollision;
    d.message = absl::StrCat("every one of the ", candidates.size(),
                             " IK solutions is in collision; the closest to the seed: ", c.link,
                             " touches ", c.other, " (", c.depth, " m deep)");
    d.has_contact = true;
    d.contact_link = c.link;
    d.contact_other = c.other;
    d.contact_depth = c.depth;
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  const bool first_changed = clear.front() != candidates.front();
  result.joints = clear.front();
  if (!clear_configurations.empty()) result.configuration = clear_configurations.front();
  if (asked == IkMode::kAll) {
    result.solutions = std::move(clear);
    result.solution_configurations = std::move(clear_configurations);
  } else {
    result.solutions.clear();
    result.solution_configurations.clear();
  }
  if (first_changed) {
    // The closest solution was blocked: the answer's errors are its own.
    MeasureAnswer(model, data, target, tool, result);
  }
  return result;
}

}  // namespace motion
