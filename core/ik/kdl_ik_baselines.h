#pragma once

#include <memory>

#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>

#include "core/model/chain_model.h"

namespace motion {

/// \brief KDL's own IK solvers on the same chain, kept selectable as
/// baselines (options.solver = "kdl_nr_jl" / "kdl_lma") and for benchmarks.
///
/// Built lazily per thread (KDL solvers are not thread-safe). Configured the
/// way a KDL user would: NR_JL with the chain's limits (continuous joints
/// +-1e9) and KDL's defaults; LMA with unit weights on all six error
/// components (KDL's default weighs rotation by 0.01, which stops it at
/// ~1e-3 rad and so never passes a 1e-5 rad check). Neither is used on
/// chains with mimic joints, which KDL cannot express.
struct KdlIkSolvers {
  explicit KdlIkSolvers(const ChainModel& model);

  // KDL's own defaults for each solver.
  static constexpr int kNrJlMaxIterations = 100;
  static constexpr double kNrJlEpsilon = 1e-6;
  static constexpr int kLmaMaxIterations = 500;
  static constexpr double kLmaEpsilon = 1e-5;

  KDL::JntArray lower, upper;
  KDL::ChainFkSolverPos_recursive fk;
  KDL::ChainIkSolverVel_pinv velocity;
  KDL::ChainIkSolverPos_NR_JL nr_jl;
  KDL::ChainIkSolverPos_LMA lma;
};

}  // namespace motion
