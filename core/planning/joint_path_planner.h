#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_checker.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief How PlanJointPath searches.
///
/// Joint metric: the Euclidean norm of the joint difference, rad for
/// rotary and m for prismatic joints, unweighted (the metric OMPL's
/// RealVectorStateSpace uses, so step sizes and path lengths compare).
/// `step` and the path lengths in JointPathResult are in it.
struct JointPathOptions {
  /// Same seed + same problem + same options => bit-identical waypoints
  /// (when the search ends by finding a path or by max_iterations, not by
  /// `timeout` or `cancelled`, the only inputs taken from outside).
  std::uint64_t seed = 1;
  double timeout = 1.0;  ///< s of wall time for search and shortcutting, > 0
  /// Tree extensions over both trees, >= 0. High enough that `timeout` is
  /// the budget that binds: 20 000 (about 0.2 s here) stopped searches the
  /// timeout would have let finish.
  int max_iterations = 200000;
  /// Longest tree edge in the joint metric, > 0. 0.7 by the joint path
  /// bench (mean call 29.7 / 24.4 / 17.7 / 16.1 / 16.7 ms at 0.2 / 0.3 /
  /// 0.5 / 0.7 / 1.0): edges are cheap to check, smaller steps only add nodes.
  double step = 0.7;
  /// Random shortcuts tried after a path is found, >= 0. 100 by the joint
  /// path bench: median call 4.1 / 5.0 ms at 100 / 200 rounds for the same
  /// median path (6.38 / 6.37 rad); each clear shortcut is a long edge
  /// checked to its end.
  int shortcut_rounds = 100;
  /// Shortcutting also ends after this many rounds in a row that shorten
  /// nothing, >= 1: on a path already short, further rounds only spend
  /// checks.
  int shortcut_patience = 20;
  double goal_bias = 0.0;  ///< in [0, 1]: chance a sample is the other tree's root
  bool self_collision = true;
  double safety_margin = 0.0;                  ///< m, >= 0, on every configuration and motion
  const AllowedCollisions* allowed = nullptr;  ///< for the same robot and scene; null: none
  double resolution = 1e-4;  ///< m, > 0, as TrajectoryCollisionOptions::resolution
  CollisionEngine engine = CollisionEngine::kFast;
  /// May be empty; polled every 32 tree extensions and every shortcut.
  std::function<bool()> cancelled;
};

enum class JointPathOutcome {
  kFound,               ///< a path of several straight motions
  kStraightLineClear,   ///< start -> goal is clear as it is
  kStartInCollision,    ///< contacts: the start's
  kGoalInCollision,     ///< contacts: the goal's
  kStartOutsideLimits,  ///< a bounded joint of the start beyond its limits
  kGoalOutsideLimits,   ///< a bounded joint of the goal beyond its limits
  kNoPathWithinBudget,  ///< max_iterations or timeout reached (stats say which, and what was
                        ///< explored)
  kCancelled,           ///< `cancelled` returned true
};

const char* JointPathOutcomeName(JointPathOutcome outcome);

/// \brief What a search explored (all zero for outcomes decided before it).
struct JointPathStats {
  int start_tree_nodes = 0;               ///< including the start
  int goal_tree_nodes = 0;                ///< including the goal
  int iterations = 0;                     ///< tree extensions over both trees
  std::int64_t configuration_checks = 0;  ///< joint vectors probed (nodes, ends, halvings)
  std::int64_t edge_checks = 0;           ///< straight motions checked (tree edges, shortcuts)
  int shortcuts_applied = 0;
  double search_seconds = 0.0;          ///< wall time up to the first path (or the end)
  double total_seconds = 0.0;           ///< wall time of the whole call
  double length_before_shortcut = 0.0;  ///< joint metric, the search's path
  double length_after_shortcut = 0.0;   ///< joint metric, the returned path
  bool timed_out = false;
};

struct JointPathResult {
  JointPathOutcome outcome = JointPathOutcome::kNoPathWithinBudget;
  /// kFound / kStraightLineClear: start, ..., goal (the first and last bit
  /// for bit the inputs), every consecutive pair a clear straight joint
  /// motion by MotionChecker::MotionIsClear with these options, every
  /// waypoint within the bounded joints' limits. Empty otherwise.
  std::vector<Eigen::VectorXd> waypoints;
  std::vector<Contact> contacts;  ///< kStartInCollision / kGoalInCollision: every pair
  /// k*OutsideLimits: the first DOF beyond its limits.
  int joint_outside_limits = -1;
  JointPathStats stats;
};

/// \brief A collision-free joint-space path from `start` to `goal`:
/// the straight motion when it is clear, else RRT-Connect (Kuffner &
/// LaValle 2000: two trees, extend / connect alternating, samples uniform
/// within the limits) followed by random shortcutting and removal of
/// redundant waypoints.
///
/// Samples: bounded joints uniform in [lower, upper]; continuous joints
/// in [min(start, goal) - pi, max(start, goal) + pi]. The random stream is
/// the planner's own (xoshiro256**, seeded by splitmix64, 53-bit doubles),
/// so results do not depend on the standard library.
///
/// Configurations and edges are checked by one MotionChecker (the code
/// FindTrajectoryCollisions uses between samples), so every returned edge
/// is clear by that check. `data` is this thread's ChainData for `chain`.
///
/// InvalidArgument (message naming the field) for start / goal not of
/// chain.dof() finite values, or options out of their ranges; everything
/// else is an outcome.
absl::StatusOr<JointPathResult> PlanJointPath(const ChainModel& chain, ChainData& data,
                                              const RobotCollisionModel& robot,
                                              const CollisionScene& scene,
                                              const Eigen::VectorXd& start,
                                              const Eigen::VectorXd& goal,
                                              const JointPathOptions& options);

}  // namespace motion
