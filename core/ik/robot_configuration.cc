#include "core/ik/robot_configuration.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace motion {
namespace {

// Flags are 0 only exactly on a branch boundary: the raw quantities are
// products of unit vectors and lengths of order 0.1-1 m.
constexpr double kBoundary = 1e-12;

int SignOf(double v) { return v > kBoundary ? 1 : (v < -kBoundary ? -1 : 0); }

double Triple(const Eigen::Vector3d* axes, int k) {
  return axes[k].dot(axes[k - 1].cross(axes[k + 1]));
}

const char* FlagText(int flag) { return flag > 0 ? "+1" : (flag < 0 ? "-1" : "any"); }

RobotConfiguration TurnsOnly(const ChainModel& model, const Eigen::Ref<const Eigen::VectorXd>& q) {
  RobotConfiguration c;
  c.turns.resize(model.dof());
  for (int i = 0; i < model.dof(); ++i) {
    c.turns[i] = model.dof_types[i] == JointType::kPrismatic ? 0 : WholeTurns(q[i]);
  }
  return c;
}

// The flags from the axes and axis points at q and the wrist point there
// (README "Robot configurations"; signs from DetectArmGeometry).
void SetFlags(const ArmGeometry& g, const Eigen::Vector3d* axes, const Eigen::Vector3d* points,
              const Eigen::Vector3d& wrist, RobotConfiguration& c) {
  if (g.family == ArmFamily::kSevenAxis) {
    c.shoulder = g.pivot_sign[0] * SignOf(Triple(axes, g.pivot[0]));
    c.elbow = g.pivot_sign[1] * SignOf(Triple(axes, g.pivot[1]));
    c.wrist = g.pivot_sign[2] * SignOf(Triple(axes, g.pivot[2]));
    return;
  }
  c.shoulder = g.shoulder_sign * SignOf(axes[1].dot(axes[0].cross(wrist - points[0])));
  const Eigen::Vector3d end = g.forearm_end_axis < 0 ? wrist : points[g.forearm_end_axis];
  c.elbow = g.elbow_sign * SignOf(axes[1].dot((points[2] - points[1]).cross(end - points[1])));
  c.wrist = g.wrist_sign * SignOf(Triple(axes, g.pivot[2]));
}

}  // namespace

int WholeTurns(double q) { return static_cast<int>(std::ceil((q - M_PI) / (2.0 * M_PI))); }

RobotConfiguration ComputeConfiguration(const ChainModel& model, const ArmGeometry& g,
                                        const Eigen::Ref<const Eigen::VectorXd>& q) {
  RobotConfiguration c = TurnsOnly(model, q);
  if (!g.has_flags() || q.size() != static_cast<Eigen::Index>(g.h.size())) return c;
  Eigen::Vector3d axes[7], points[7];
  const Eigen::Isometry3d moved = MoveAxes(g, q, axes, points);
  // The wrist point is fixed by the joints after it (E_4..E_6 or E_5, E_6).
  SetFlags(g, axes, points, moved * g.wrist_point, c);
  return c;
}

RobotConfiguration ComputeConfigurationFromFrames(const ChainModel& model, const ArmGeometry& g,
                                                  const ChainData& data,
                                                  const Eigen::Isometry3d& tip,
                                                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  RobotConfiguration c = TurnsOnly(model, q);
  if (!g.has_flags() || q.size() != static_cast<Eigen::Index>(g.h.size())) return c;
  Eigen::Vector3d axes[7], points[7];
  for (std::size_t k = 0; k < g.h.size(); ++k) {
    // F_k = F_{k-1} origin_k Motion_k: the motion about the joint's own axis
    // leaves that axis and the frame origin in place.
    axes[k] = data.joint_frames[k].linear() * model.joints[k].axis;
    points[k] = data.joint_frames[k].translation();
  }
  SetFlags(g, axes, points, tip * (g.tip_at_zero.inverse() * g.wrist_point), c);
  return c;
}

bool FlagsMatch(const RobotConfiguration& wanted, const RobotConfiguration& have) {
  const auto agree = [](int w, int h) { return w == 0 || h == 0 || w == h; };
  return agree(wanted.shoulder, have.shoulder) && agree(wanted.elbow, have.elbow) &&
         agree(wanted.wrist, have.wrist);
}

bool ConfigurationMatches(const RobotConfiguration& wanted, const RobotConfiguration& have) {
  return FlagsMatch(wanted, have) && (wanted.turns.empty() || wanted.turns == have.turns);
}

std::string FormatConfiguration(const RobotConfiguration& c) {
  std::string out = absl::StrCat("(shoulder ", FlagText(c.shoulder), ", elbow ", FlagText(c.elbow),
                                 ", wrist ", FlagText(c.wrist));
  if (!c.turns.empty()) absl::StrAppend(&out, ", turns [", absl::StrJoin(c.turns, " "), "]");
  return out + ")";
}

absl::Status ValidateConfiguration(const RobotConfiguration& c, const ChainModel& model,
                                   const ArmGeometry& g, absl::string_view field) {
  for (auto [value, name] : {std::pair{c.shoulder, "shoulder"}, std::pair{c.elbow, "elbow"},
                             std::pair{c.wrist, "wrist"}}) {
    if (value < -1 || value > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", name, ": must be -1, 0 (any) or +1, got ", value));
    }
  }
  if (!c.turns.empty() && static_cast<int>(c.turns.size()) != model.dof()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ".turns: ", c.turns.size(),
                                                   " values for a chain of ", model.dof(),
                                                   " DOF; give none (any) or one per DOF"));
  }
  for (std::size_t i = 0; i < c.turns.size(); ++i) {
    if (model.dof_types[i] == JointType::kPrismatic && c.turns[i] != 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".turns[", i, "]: ", model.dof_names[i],
                                                     " is prismatic; its turns must be 0"));
    }
  }
  if (!g.has_flags() && (c.shoulder != 0 || c.elbow != 0 || c.wrist != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": this chain (", model.dof(),
                     " DOF, not a spherical-wrist, UR or 7-axis arm) has no shoulder, elbow or "
                     "wrist flags; leave them 0"));
  }
  return absl::OkStatus();
}

}  // namespace motion
