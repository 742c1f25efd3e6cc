#pragma once
// OMPL's RRT-Connect on motiond's collision checking, for the joint path
// benchmark: states checked by CheckCollision, motions by the same
// MotionChecker PlanJointPath uses. Built only when OMPL is found.

#include "joint_path_problems.h"

namespace motion_bench {

struct PlannerRun {
  bool solved = false;
  double seconds = 0.0;  ///< plan + simplify, wall time
  double length_before = 0.0, length_after = 0.0;
};

/// One solve with range `step` (the joint-space edge length, as
/// JointPathOptions::step) and `timeout` s, then simplifySolution.
PlannerRun RunOmplRrtConnect(const JointPathProblem& problem, double step, double timeout);

}  // namespace motion_bench
