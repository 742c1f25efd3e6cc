#include "joint_path_ompl.h"

#include <chrono>
#include <memory>

#include <ompl/base/MotionValidator.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/SimpleSetup.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/util/Console.h>

#include "core/collision/collision_checker.h"
#include "core/collision/motion_checker.h"

namespace motion_bench {
namespace {

namespace ob = ompl::base;
namespace og = ompl::geometric;

Eigen::VectorXd ToVector(const ob::State* s, int dof) {
  const auto* v = s->as<ob::RealVectorStateSpace::StateType>();
  Eigen::VectorXd q(dof);
  for (int k = 0; k < dof; ++k) q[k] = v->values[k];
  return q;
}

// The straight motion between two states by motiond's MotionChecker.
class SharedMotionValidator : public ob::MotionValidator {
 public:
  SharedMotionValidator(const ob::SpaceInformationPtr& si, motion::MotionChecker& checker, int dof)
      : ob::MotionValidator(si), checker_(checker), dof_(dof) {}
  bool checkMotion(const ob::State* s1, const ob::State* s2) const override {
    const bool clear = checker_.MotionIsClear(ToVector(s1, dof_), ToVector(s2, dof_));
    return clear;
  }
  bool checkMotion(const ob::State* s1, const ob::State* s2,
                   std::pair<ob::State*, double>& last_valid) const override {
    // Only the yes/no is needed by RRT-Connect; the last valid state is s1.
    const bool clear = checkMotion(s1, s2);
    if (!clear) {
      if (last_valid.first) si_->copyState(last_valid.first, s1);
      last_valid.second = 0.0;
    }
    return clear;
  }

 private:
  motion::MotionChecker& checker_;
  int dof_;
};

}  // namespace

PlannerRun RunOmplRrtConnect(const JointPathProblem& problem, double step, double timeout) {
  ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
  const motion::ChainModel& chain = *problem.robot->chain;
  const int dof = chain.dof();
  motion::ChainData data(chain);
  motion::MotionChecker checker(chain, data, *problem.robot->collision, *problem.scene, {});
  auto space = std::make_shared<ob::RealVectorStateSpace>(dof);
  ob::RealVectorBounds bounds(dof);
  for (int k = 0; k < dof; ++k) {
    const motion::JointLimits& l = chain.dof_limits[k];
    bounds.setLow(k, l.bounded ? l.lower : std::min(problem.start[k], problem.goal[k]) - M_PI);
    bounds.setHigh(k, l.bounded ? l.upper : std::max(problem.start[k], problem.goal[k]) + M_PI);
  }
  space->setBounds(bounds);
  og::SimpleSetup setup(space);
  const ob::SpaceInformationPtr& si = setup.getSpaceInformation();
  setup.setStateValidityChecker([&](const ob::State* s) {
    return !motion::CheckCollision(chain, data, *problem.robot->collision, *problem.scene,
                                   ToVector(s, dof), {})
                .in_collision;
  });
  si->setMotionValidator(std::make_shared<SharedMotionValidator>(si, checker, dof));
  ob::ScopedState<> start(space), goal(space);
  for (int k = 0; k < dof; ++k) {
    start[k] = problem.start[k];
    goal[k] = problem.goal[k];
  }
  setup.setStartAndGoalStates(start, goal);
  auto planner = std::make_shared<og::RRTConnect>(si);
  planner->setRange(step);
  setup.setPlanner(planner);
  setup.setup();
  PlannerRun run;
  const auto t0 = std::chrono::steady_clock::now();
  const ob::PlannerStatus status = setup.solve(timeout);
  run.solved = status == ob::PlannerStatus::EXACT_SOLUTION;
  if (run.solved) {
    run.length_before = setup.getSolutionPath().length();
    setup.simplifySolution();
    run.length_after = setup.getSolutionPath().length();
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

}  // namespace motion_bench
