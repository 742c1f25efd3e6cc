#include "core/ik/internal/levenberg_marquardt_ik.h"

#include "core/ik/joint_space.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

double WeightedCost(const PoseError& e, double w) {
  return e.vector.head<3>().squaredNorm() + w * w * e.vector.tail<3>().squaredNorm();
}

bool Converged(const PoseError& e, const LevenbergMarquardtSettings& s) {
  return e.position <= s.position_tolerance && e.rotation <= s.orientation_tolerance;
}

constexpr double kInitialLambda = 1e-4;
constexpr double kMinLambda = 1e-12;
constexpr double kMaxLambda = 1e6;

}  // namespace

LevenbergMarquardtAttempt RunLevenbergMarquardt(const ChainModel& model, IkData& data,
                                                const Eigen::Isometry3d& target,
                                                const Eigen::Isometry3d& tool,
                                                const LevenbergMarquardtSettings& settings) {
  LevenbergMarquardtAttempt attempt;
  const double w = settings.rotation_weight;
  if (settings.enforce_limits) EnforceLimits(model, data.q);
  Eigen::Isometry3d tcp = ForwardKinematics(model, data.kinematics, data.q) * tool;
  attempt.iterations = 1;
  attempt.error = ComputePoseError(tcp, target);
  double cost = WeightedCost(attempt.error, w);
  double lambda = kInitialLambda;
  double window_start_cost = cost;
  int window_start = attempt.iterations;

  while (!Converged(attempt.error, settings) && attempt.iterations < settings.max_iterations) {
    // Linearise at the accepted point: data.kinematics holds its frames.
    JacobianFromFrames(model, data.kinematics, tcp.translation(), data.jacobian);
    data.jacobian.bottomRows<3>() *= w;
    Vector6d e = attempt.error.vector;
    e.tail<3>() *= w;
    data.normal.noalias() = data.jacobian.transpose() * data.jacobian;
    data.gradient.noalias() = data.jacobian.transpose() * e;

    bool accepted = false;
    while (!accepted && attempt.iterations < settings.max_iterations) {
      data.normal.diagonal().array() += lambda;
      data.ldlt.compute(data.normal);
      data.normal.diagonal().array() -= lambda;
      data.step = data.ldlt.solve(data.gradient);
      data.trial = data.q + data.step;
      if (settings.enforce_limits) EnforceLimits(model, data.trial);

      const Eigen::Isometry3d trial_tcp =
          ForwardKinematics(model, data.kinematics, data.trial) * tool;
      ++attempt.iterations;
      const PoseError trial_error = ComputePoseError(trial_tcp, target);
      const double trial_cost = WeightedCost(trial_error, w);
      if (trial_cost < cost) {
        data.q = data.trial;
        tcp = trial_tcp;
        attempt.error = trial_error;
        cost = trial_cost;
        lambda = std::max(lambda * 0.1, kMinLambda);
        accepted = true;
      } else {
        lambda *= 10.0;
        if (lambda > kMaxLambda) {  // no descent direction left: stuck
          attempt.tcp = tcp;
          return attempt;
        }
      }
    }
    if (attempt.iterations - window_start >= settings.stall_window) {
      if (cost > 0.5 * window_start_cost) break;  // stalled
      window_start = attempt.iterations;
      window_start_cost = cost;
    }
  }
  attempt.converged = Converged(attempt.error, settings);
  attempt.tcp = tcp;
  // If the loop ended on a rejected trial, data.kinematics holds the trial's frames;
  // callers that need frames of data.q recompute them.
  return attempt;
}

}  // namespace motion
