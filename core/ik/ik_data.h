#pragma once

#include <memory>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/ik/arm_geometry.h"
#include "core/ik/kdl_ik_baselines.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/jacobian.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief What IK (and the planners, which call it) write into for one
/// ChainModel, per thread: Pinocchio's Data beside its Model. Sized once, so
/// an iteration allocates nothing; never shared between threads (KDL's
/// solvers are not thread-safe either). Every IK and planning algorithm takes
/// `(const ChainModel& model, IkData& data, inputs...)`, as FK and the
/// Jacobian take `(model, ChainData&, ...)`.
struct IkData {
  explicit IkData(const ChainModel& model);

  /// FK and Jacobian buffers (frames of the last ForwardKinematics call).
  ChainData kinematics;

  // Levenberg-Marquardt buffers.
  Jacobian jacobian;
  Eigen::MatrixXd normal;  ///< J^T W J + damping
  Eigen::VectorXd gradient, step, q, trial, best;
  Eigen::LDLT<Eigen::MatrixXd> ldlt;

  /// KDL's baseline solvers for `model` (the one this data was made for),
  /// built on first use: most threads never need them.
  KdlIkSolvers& Kdl(const ChainModel& model);

  /// The family and PoE geometry of `model` (DetectArmGeometry), detected on
  /// first use: what the closed forms and the configuration flags need.
  const ArmGeometry& Geometry(const ChainModel& model);

 private:
  std::unique_ptr<KdlIkSolvers> kdl_;
  std::unique_ptr<ArmGeometry> geometry_;
};

}  // namespace motion
