#include "core/ik/kdl_ik_baselines.h"

namespace motion {
namespace {

KDL::JntArray Bound(const ChainModel& model, bool upper) {
  KDL::JntArray out(model.dof());
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    out(i) = l.bounded ? (upper ? l.upper : l.lower) : (upper ? 1e9 : -1e9);
  }
  return out;
}

}  // namespace

KdlIkSolvers::KdlIkSolvers(const ChainModel& model)
    : lower(Bound(model, false)),
      upper(Bound(model, true)),
      fk(model.kdl_chain),
      velocity(model.kdl_chain),
      nr_jl(model.kdl_chain, lower, upper, fk, velocity, kNrJlMaxIterations, kNrJlEpsilon),
      lma(model.kdl_chain, Eigen::Matrix<double, 6, 1>::Ones(), kLmaEpsilon, kLmaMaxIterations) {}

}  // namespace motion
