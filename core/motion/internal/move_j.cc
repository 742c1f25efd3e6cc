#include "core/motion/internal/move_j.h"

#include "core/motion/internal/move_j_around.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ik/collision_free_ik.h"
#include "core/ik/ik_solver.h"
#include "core/ik/joint_space.h"
#include "core/ik/robot_configuration.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/segment_sampling.h"
#include "core/motion/internal/torque_slowdown.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/profile/path_profile.h"

namespace motion {

namespace {

// MoveJ samples are checked for singularity like a Cartesian path's: every
// kSingularityCheckInterval-th sample, one warning per segment.
class SingularityWatch {
 public:
  SingularityWatch(const SegmentContext& context, const MotionSegment& segment)
      : context_(context),
        tool_(segment.tool.ToIsometry()),
        index_base_(static_cast<std::int64_t>(context.out.size()) - (context.Stores(0) ? 0 : 1)) {}
  void Check(double t, const Eigen::VectorXd& q, SegmentReport& report) {
    const std::int64_t k = std::llround(t / context_.sample_time);
    if (reported_ || k % kSingularityCheckInterval != 1) return;
    reported_ = WarnIfNearSingular(context_.model, context_.data.kinematics, q, tool_,
                                   index_base_ + k, context_.start_time + t, report);
  }

 private:
  const SegmentContext& context_;
  const Eigen::Isometry3d tool_;
  const std::int64_t index_base_;
  bool reported_ = false;
};

// MoveJ with sync = TIME: every moving joint its own fastest profile, all
// then played to end with the slowest one (PlanWithDuration for the
// double-S: a lower peak speed at the same acceleration and jerk limits; a
// uniform stretch in time for the trapezoid). The slowest joint's profile
// drives the sampling; every joint is put on the same grid stretch. At
// least one joint moves (the caller plans a motionless MoveJ as a line).
absl::Status SampleTimeSynchronised(const MotionSegment& segment, SegmentContext& context,
                                    const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double f,
                                    const RateScale& scale, SegmentReport& report,
                                    Eigen::VectorXd& end_joints, TorqueRefusal* refusal) {
  const ChainModel& model = context.model;
  const int dof = model.dof();
  const Eigen::VectorXd dq = q1 - q0;
  std::vector<std::optional<PathProfile>> own(dof);
  double slowest = 0.0;
  int driver = -1;
  for (int j = 0; j < dof; ++j) {
    if (std::abs(dq[j]) < 1e-12) continue;
    const JointLimits& l = context.limits[j];
    absl::StatusOr<PathProfile> p =
        PathProfile::Plan(context.profile, std::abs(dq[j]), f * scale.velocity * l.max_velocity,
                          f * scale.acceleration * l.max_acceleration, f * l.max_jerk);
    if (!p.ok()) return p.status();
    if (p->duration() > slowest) slowest = p->duration(), driver = j;
    own[j] = *std::move(p);
  }
  SingularityWatch watch(context, segment);
  std::vector<std::optional<PathProfile>> played(dof);
  for (int j = 0; j < dof; ++j) {
    if (!own[j]) continue;
    if (context.profile == ProfileKind::kJerkLimited && j != driver) {
      const JointLimits& l = context.limits[j];
      absl::StatusOr<DoubleSProfile> p = DoubleSProfile::PlanWithDuration(
          std::abs(dq[j]), slowest, f * scale.velocity * l.max_velocity,
          f * scale.acceleration * l.max_acceleration, f * l.max_jerk);
      if (!p.ok()) return p.status();
      played[j] = PathProfile(*std::move(p)).OnGrid(context.sample_time);
    } else {
      played[j] = own[j]->StretchedTo(slowest).OnGrid(context.sample_time);
    }
  }
  return SampleSegment(
      context, *own[driver], report,
      [&](double t, const PathProfile::State&, SampleOut& out) {
        out.q = q0;
        out.qd = Eigen::VectorXd::Zero(dof);
        out.qdd = Eigen::VectorXd::Zero(dof);
        for (int j = 0; j < dof; ++j) {
          if (!played[j]) continue;
          const PathProfile::State s = played[j]->At(t);
          const double sign = dq[j] > 0 ? 1.0 : -1.0;
          // The last sample is the target exactly.
          out.q[j] = s.s >= std::abs(dq[j]) ? q1[j] : q0[j] + sign * s.s;
          out.qd[j] = sign * s.sd;
          out.qdd[j] = sign * s.sdd;
        }
        out.tcp = Pose::FromIsometry(ForwardKinematics(model, context.data.kinematics, out.q) *
                                     segment.tool.ToIsometry());
        watch.Check(t, out.q, report);
        return true;
      },
      end_joints, refusal, /*follows_profile=*/false);
}

// No IK solution for a MoveJ pose target: TARGET_UNREACHABLE naming the
// configuration asked for (if one was), then IK's own diagnostics.
void ReportUnreachableTarget(const MotionSegment& segment,
                             const std::vector<Diagnostic>& ik_diagnostics, SegmentReport& report) {
  if (segment.configuration) {
    AddSegmentDiagnostic(report, Severity::kError, DiagnosticCode::kTargetUnreachable,
                         absl::StrCat("movej target: not reachable in configuration ",
                                      FormatConfiguration(*segment.configuration)));
  }
  ReportFailedIk(ik_diagnostics, "movej target", report);
}

// The request's collision checking as collision-free IK asks for it.
IkCollisionCheck CollisionCheckOf(const SegmentContext& context) {
  CollisionQuery query;
  query.self_collision = context.collision.self_collision;
  query.safety_margin = context.collision.safety_margin;
  query.allowed = context.collision.allowed;
  return {*context.collision.robot, *context.collision.scene, query};
}

// The contact that blocks the closest solution of a kInCollision answer.
const Diagnostic* BlockingContact(const IkResult& ik) {
  for (const Diagnostic& d : ik.diagnostics) {
    if (d.has_contact) return &d;
  }
  return nullptr;
}

// A MoveJ pose target with avoid_collisions: the closest collision-free IK
// solution (SolveCollisionFreeIk) in the requested configuration, else in
// the start's first and then in any. None clear: PLANNING_FAILED naming the
// pair that blocks the closest solution.
absl::StatusOr<bool> ResolveCollisionFreePoseTarget(const MotionSegment& segment,
                                                    SegmentContext& context, const Pose& target,
                                                    IkOptions options, SegmentReport& report,
                                                    Eigen::VectorXd& q1) {
  const Eigen::VectorXd& q0 = context.start;
  const std::vector<double> seed(q0.data(), q0.data() + q0.size());
  const IkCollisionCheck check = CollisionCheckOf(context);
  absl::StatusOr<IkResult> ik =
      SolveCollisionFreeIk(context.model, context.data, target, segment.tool, seed, options, check);
  if (!ik.ok()) return ik.status();
  IkResult blocked_in_start;
  if (!ik->ok && options.configuration && !segment.configuration) {
    const RobotConfiguration start = *options.configuration;
    if (ik->outcome == IkOutcome::kInCollision) blocked_in_start = *ik;
    options.configuration.reset();
    ik = SolveCollisionFreeIk(context.model, context.data, target, segment.tool, seed, options,
                              check);
    if (!ik.ok()) return ik.status();
    if (ik->ok) {
      const RobotConfiguration& to = ik->configuration;
      AddSegmentDiagnostic(
          report, Severity::kWarning, DiagnosticCode::kConfigurationChange,
          absl::StrCat("movej target: no collision-free solution in the start's configuration ",
                       FormatConfiguration(start), "; moving to the closest clear one ",
                       FormatConfiguration({to.shoulder, to.elbow, to.wrist, {}})));
    }
  }
  if (ik->ok) {
    q1 = ik->joints;
    return true;
  }
  const Diagnostic* blocked = BlockingContact(*ik);
  if (blocked == nullptr) blocked = BlockingContact(blocked_in_start);
  if (blocked != nullptr) {
    const Contact c{blocked->contact_link, blocked->contact_other, blocked->contact_depth};
    AddPlanningFailed(
        report,
        absl::StrCat(
            "movej avoid_collisions: the target is in collision in every IK solution",
            segment.configuration
                ? absl::StrCat(" in configuration ", FormatConfiguration(*segment.configuration))
                : std::string(),
            "; the closest to the start: ", c.link, " touches ", c.other, " (", c.depth,
            " m deep)"),
        &c);
    return false;
  }
  ReportUnreachableTarget(segment, ik->diagnostics, report);
  return false;
}

// The joints of a MoveJ pose target, seeded with the start (turns nearest
// it). With segment.configuration: in that configuration or
// TARGET_UNREACHABLE naming it. Without: in the start's configuration when
// that reaches the target, else the closest reachable one with a
// CONFIGURATION_CHANGE warning saying from which to which. False (and the
// report says why) when there is none.
absl::StatusOr<bool> ResolvePoseTarget(const MotionSegment& segment, SegmentContext& context,
                                       const Pose& target, SegmentReport& report,
                                       Eigen::VectorXd& q1) {
  const ChainModel& model = context.model;
  IkData& data = context.data;
  const Eigen::VectorXd& q0 = context.start;
  const std::vector<double> seed(q0.data(), q0.data() + q0.size());
  const ArmGeometry& geometry = data.Geometry(model);
  IkOptions options;
  if (segment.configuration) {
    options.configuration = segment.configuration;
  } else if (geometry.has_flags()) {
    const RobotConfiguration start = ComputeConfiguration(model, geometry, q0);
    options.configuration = RobotConfiguration{start.shoulder, start.elbow, start.wrist, {}};
  }
  if (segment.avoid_collisions && context.collision.robot) {
    return ResolveCollisionFreePoseTarget(segment, context, target, options, report, q1);
  }
  absl::StatusOr<IkResult> ik = SolveIk(model, data, target, segment.tool, seed, options);
  if (!ik.ok()) return ik.status();
  if (!ik->ok && options.configuration && !segment.configuration) {
    const RobotConfiguration start = *options.configuration;
    options.configuration.reset();
    ik = SolveIk(model, data, target, segment.tool, seed, options);
    if (!ik.ok()) return ik.status();
    if (ik->ok) {
      const RobotConfiguration& to = ik->configuration;
      AddSegmentDiagnostic(
          report, Severity::kWarning, DiagnosticCode::kConfigurationChange,
          absl::StrCat("movej target: not reachable in the start's configuration ",
                       FormatConfiguration(start), "; moving to the closest reachable one ",
                       FormatConfiguration({to.shoulder, to.elbow, to.wrist, {}})));
    }
  }
  if (!ik->ok) {
    ReportUnreachableTarget(segment, ik->diagnostics, report);
    return false;
  }
  q1 = ik->joints;
  return true;
}

}  // namespace

absl::Status PlanMoveJ(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints) {
  const ChainModel& model = context.model;
  const Eigen::VectorXd& q0 = context.start;
  end_joints = q0;

  Eigen::VectorXd q1(model.dof());
  if (segment.joint_target) {
    // Length and finiteness: checked for the whole program by ValidateProgram.
    q1 = Eigen::Map<const Eigen::VectorXd>(segment.target_joints.data(), model.dof());
  } else {
    const Pose target =
        ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
    absl::StatusOr<bool> resolved = ResolvePoseTarget(segment, context, target, report, q1);
    if (!resolved.ok()) return resolved.status();
    if (!*resolved) return absl::OkStatus();
  }
  if (const int j = FirstJointOutsideLimits(model, q1); j >= 0) {
    AddSegmentDiagnostic(
        report, Severity::kError, DiagnosticCode::kJointLimit,
        absl::StrCat("movej target: ", model.dof_names[j], " = ", q1[j], " is outside its limits [",
                     model.dof_limits[j].lower, ", ", model.dof_limits[j].upper, "]"));
    return absl::OkStatus();
  }

  if (segment.avoid_collisions) {
    return PlanMoveJAroundObstacles(segment, context, q1, report, end_joints);
  }
  return PlanStraightMoveJ(segment, context, q0, q1, report, end_joints);
}

absl::Status PlanStraightMoveJ(const MotionSegment& segment, SegmentContext& context,
                               const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                               SegmentReport& report, Eigen::VectorXd& end_joints) {
  const ChainModel& model = context.model;
  IkData& data = context.data;
  end_joints = q0;
  // The synchronised profile: the tightest joint bounds s' and s''.
  // joint_fraction is in (0, 1]: defaulted and validated before planning.
  const double f = segment.speed.joint_fraction * context.speed_override;
  const Eigen::VectorXd dq = q1 - q0;
  // On the straight line q0 + s (q1 - q0) joint j moves at dq_j ds/dt: the
  // bounds on the rates of s are the tightest joint's limits / |dq_j|.
  double s_velocity = std::numeric_limits<double>::infinity();
  double s_acceleration = std::numeric_limits<double>::infinity();
  double s_jerk = std::numeric_limits<double>::infinity();
  for (int j = 0; j < model.dof(); ++j) {
    if (std::abs(dq[j]) < 1e-12) continue;
    const JointLimits& l = context.limits[j];
    s_velocity = std::min(s_velocity, f * l.max_velocity / std::abs(dq[j]));
    s_acceleration = std::min(s_acceleration, f * l.max_acceleration / std::abs(dq[j]));
    s_jerk = std::min(s_jerk, f * l.max_jerk / std::abs(dq[j]));
  }
  report.path_length = dq.norm();
  // Torque: where the sampled motion needs more than a joint's max_torque
  // its bounds come down (SampleWithinTorque) and it is timed again.
  if (segment.sync == JointSync::kTime && std::isfinite(s_velocity)) {
    return SampleWithinTorque(context, report, [&](const RateScale& scale, TorqueRefusal* refusal) {
      return SampleTimeSynchronised(segment, context, q0, q1, f, scale, report, end_joints,
                                    refusal);
    });
  }
  return SampleWithinTorque(context, report, [&](const RateScale& scale, TorqueRefusal* refusal) {
    absl::StatusOr<PathProfile> profile =
        PathProfile::Plan(context.profile, 1.0, scale.velocity * s_velocity,
                          scale.acceleration * s_acceleration, s_jerk);
    if (!profile.ok()) return profile.status();
    SingularityWatch watch(context, segment);
    return SampleSegment(
        context, *profile, report,
        [&](double t, const PathProfile::State& s, SampleOut& out) {
          // q0 + (q1 - q0) * 1 can miss q1 by an ulp: the last sample is the target.
          out.q = s.s >= 1.0 ? q1 : Eigen::VectorXd(q0 + dq * s.s);
          out.qd = dq * s.sd;
          out.qdd = dq * s.sdd;
          out.tcp = Pose::FromIsometry(ForwardKinematics(model, data.kinematics, out.q) *
                                       segment.tool.ToIsometry());
          watch.Check(t, out.q, report);
          return true;
        },
        end_joints, refusal);
  });
}

}  // namespace motion
