#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/kinematics/jacobian.h"

namespace motion {

/// \brief Buffers of the Levenberg-Marquardt IK, sized once per chain and
/// thread, so an iteration allocates nothing.
struct IkScratch {
  explicit IkScratch(int dof)
      : jacobian(6, dof),
        normal(dof, dof),
        gradient(dof),
        step(dof),
        q(dof),
        trial(dof),
        best(dof),
        ldlt(dof) {}

  Jacobian jacobian;
  Eigen::MatrixXd normal;  ///< J^T W J + damping
  Eigen::VectorXd gradient, step, q, trial, best;
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
};

}  // namespace motion
