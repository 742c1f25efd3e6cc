#include "core/planning/joint_path_planner.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/collision/motion_checker.h"
#include "core/planning/internal/path_shortcutting.h"
#include "core/planning/internal/random_stream.h"
#include "core/planning/internal/rrt_connect.h"
#include "core/planning/internal/search_interrupt.h"

namespace motion {

const char* JointPathOutcomeName(JointPathOutcome outcome) {
  switch (outcome) {
    case JointPathOutcome::kFound:
      return "found";
    case JointPathOutcome::kStraightLineClear:
      return "straight line clear";
    case JointPathOutcome::kStartInCollision:
      return "start in collision";
    case JointPathOutcome::kGoalInCollision:
      return "goal in collision";
    case JointPathOutcome::kStartOutsideLimits:
      return "start outside limits";
    case JointPathOutcome::kGoalOutsideLimits:
      return "goal outside limits";
    case JointPathOutcome::kNoPathWithinBudget:
      return "no path within budget";
    case JointPathOutcome::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

namespace {

absl::Status CheckJoints(const Eigen::VectorXd& q, int dof, const char* field) {
  if (q.size() != dof) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", q.size(), " values for a chain of ", dof, " DOF"));
  }
  for (int k = 0; k < dof; ++k) {
    if (!std::isfinite(q[k])) {
      return absl::InvalidArgumentError(absl::StrCat(field, "[", k, "]: not a finite number"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const JointPathOptions& o) {
  auto bad = [](const char* field, const char* what) {
    return absl::InvalidArgumentError(absl::StrCat("options.", field, ": ", what));
  };
  if (!(o.timeout > 0.0)) return bad("timeout", "must be > 0 s");
  if (o.max_iterations < 0) return bad("max_iterations", "must be >= 0");
  if (!(o.step > 0.0) || !std::isfinite(o.step)) return bad("step", "must be finite and > 0");
  if (o.shortcut_rounds < 0) return bad("shortcut_rounds", "must be >= 0");
  if (o.shortcut_patience < 1) return bad("shortcut_patience", "must be >= 1");
  if (!(o.goal_bias >= 0.0 && o.goal_bias <= 1.0)) return bad("goal_bias", "must be in [0, 1]");
  if (!(o.safety_margin >= 0.0) || !std::isfinite(o.safety_margin)) {
    return bad("safety_margin", "must be finite and >= 0 m");
  }
  if (!(o.resolution > 0.0) || !std::isfinite(o.resolution)) {
    return bad("resolution", "must be finite and > 0 m");
  }
  return absl::OkStatus();
}

// The first bounded DOF of q beyond its limits, or -1.
int OutsideLimits(const ChainModel& chain, const Eigen::VectorXd& q) {
  for (int k = 0; k < chain.dof(); ++k) {
    const JointLimits& l = chain.dof_limits[k];
    if (l.bounded && (q[k] < l.lower || q[k] > l.upper)) return k;
  }
  return -1;
}

}  // namespace

absl::StatusOr<JointPathResult> PlanJointPath(const ChainModel& chain, ChainData& data,
                                              const RobotCollisionModel& robot,
                                              const CollisionScene& scene,
                                              const Eigen::VectorXd& start,
                                              const Eigen::VectorXd& goal,
                                              const JointPathOptions& options) {
  const int dof = chain.dof();
  if (absl::Status s = CheckJoints(start, dof, "start"); !s.ok()) return s;
  if (absl::Status s = CheckJoints(goal, dof, "goal"); !s.ok()) return s;
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;

  SearchInterrupt interrupt(options.timeout, options.cancelled);
  JointPathResult result;
  auto finish = [&](JointPathOutcome outcome) {
    result.outcome = outcome;
    result.stats.total_seconds = interrupt.Elapsed();
    return result;
  };
  if ((result.joint_outside_limits = OutsideLimits(chain, start)) >= 0) {
    return finish(JointPathOutcome::kStartOutsideLimits);
  }
  if ((result.joint_outside_limits = OutsideLimits(chain, goal)) >= 0) {
    return finish(JointPathOutcome::kGoalOutsideLimits);
  }

  TrajectoryCollisionOptions check;
  check.self_collision = options.self_collision;
  check.safety_margin = options.safety_margin;
  check.allowed = options.allowed;
  check.resolution = options.resolution;
  check.engine = options.engine;
  MotionChecker checker(chain, data, robot, scene, check);
  auto count = [&] {
    result.stats.configuration_checks = checker.configurations_probed();
    result.stats.edge_checks = checker.motions_checked();
  };
  result.contacts = checker.ContactsAt(start);
  if (!result.contacts.empty()) {
    count();
    return finish(JointPathOutcome::kStartInCollision);
  }
  result.contacts = checker.ContactsAt(goal);
  if (!result.contacts.empty()) {
    count();
    return finish(JointPathOutcome::kGoalInCollision);
  }
  if (checker.MotionIsClear(start, goal)) {
    result.waypoints = {start, goal};
    result.stats.length_before_shortcut = result.stats.length_after_shortcut =
        (goal - start).norm();
    count();
    return finish(JointPathOutcome::kStraightLineClear);
  }

  RrtConnectSettings settings;
  settings.lower.resize(dof);
  settings.upper.resize(dof);
  for (int k = 0; k < dof; ++k) {
    const JointLimits& l = chain.dof_limits[k];
    if (l.bounded) {
      settings.lower[k] = l.lower;
      settings.upper[k] = l.upper;
    } else {
      // One turn either way around both ends covers every way round.
      settings.lower[k] = std::min(start[k], goal[k]) - M_PI;
      settings.upper[k] = std::max(start[k], goal[k]) + M_PI;
    }
  }
  settings.step = options.step;
  settings.max_iterations = options.max_iterations;
  settings.goal_bias = options.goal_bias;
  RandomStream random(options.seed);
  RrtConnectOutcome search = RrtConnect(checker, start, goal, settings, random, interrupt);
  result.stats.start_tree_nodes = search.start_tree_nodes;
  result.stats.goal_tree_nodes = search.goal_tree_nodes;
  result.stats.iterations = search.iterations;
  result.stats.search_seconds = interrupt.Elapsed();
  if (!search.connected) {
    count();
    if (interrupt.reason() == SearchInterrupt::Reason::kCancelled) {
      return finish(JointPathOutcome::kCancelled);
    }
    result.stats.timed_out = interrupt.reason() == SearchInterrupt::Reason::kTimeout;
    return finish(JointPathOutcome::kNoPathWithinBudget);
  }
  std::vector<Eigen::VectorXd> path = std::move(search.path);
  result.stats.length_before_shortcut = JointPathLength(path);
  // Dropping the waypoints a straight motion can skip first leaves random
  // shortcuts fewer, longer edges to cut into, and is cheap: one check per
  // waypoint.
  RemoveRedundantWaypoints(checker, path, interrupt);
  result.stats.shortcuts_applied = ShortcutPath(checker, path, options.shortcut_rounds,
                                                options.shortcut_patience, random, interrupt);
  RemoveRedundantWaypoints(checker, path, interrupt);
  count();
  // A path stays valid whenever shortcutting stops; a cancel still means
  // the caller no longer wants it.
  if (interrupt.reason() == SearchInterrupt::Reason::kCancelled) {
    return finish(JointPathOutcome::kCancelled);
  }
  result.stats.timed_out = interrupt.reason() == SearchInterrupt::Reason::kTimeout;
  result.stats.length_after_shortcut = JointPathLength(path);
  result.waypoints = std::move(path);
  return finish(JointPathOutcome::kFound);
}

}  // namespace motion
