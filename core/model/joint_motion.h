#pragma once

#include <Eigen/Geometry>

#include "core/model/chain_model.h"

namespace motion {

/// \brief Motion_k(theta) of ChainJoint's frame convention: a rotation by theta about the
/// joint's axis (revolute, continuous) or a translation by theta along it (prismatic).
inline Eigen::Isometry3d JointMotion(const ChainJoint& joint, double theta) {
  Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
  if (joint.type == JointType::kPrismatic) {
    motion.translation() = theta * joint.axis;
  } else {
    motion.linear() = Eigen::AngleAxisd(theta, joint.axis).toRotationMatrix();
  }
  return motion;
}

}  // namespace motion
