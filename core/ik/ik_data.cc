#include "core/ik/ik_data.h"

namespace motion {

IkData::IkData(const ChainModel& model)
    : kinematics(model),
      jacobian(6, model.dof()),
      normal(model.dof(), model.dof()),
      gradient(model.dof()),
      step(model.dof()),
      q(model.dof()),
      trial(model.dof()),
      best(model.dof()),
      ldlt(model.dof()) {}

KdlIkSolvers& IkData::Kdl(const ChainModel& model) {
  if (!kdl_) kdl_ = std::make_unique<KdlIkSolvers>(model);
  return *kdl_;
}

const ArmGeometry& IkData::Geometry(const ChainModel& model) {
  if (!geometry_) geometry_ = std::make_unique<ArmGeometry>(DetectArmGeometry(model));
  return *geometry_;
}

}  // namespace motion
