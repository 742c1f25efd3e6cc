#include "core/ik/internal/reach_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace motion {

ReachBound ComputeReachBound(const ChainModel& model, const Eigen::Isometry3d& tool) {
  ReachBound bound;
  // F_0's origin does not depend on q0 for a rotary first joint; for a
  // prismatic one, start at the base and count its stroke below.
  const bool first_rotary = model.joints.front().type != JointType::kPrismatic;
  bound.center = first_rotary ? Eigen::Vector3d(model.joints.front().origin.translation())
                              : Eigen::Vector3d::Zero();
  double radius = first_rotary ? 0.0 : model.joints.front().origin.translation().norm();
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ChainJoint& joint = model.joints[k];
    if (k > 0) radius += joint.origin.translation().norm();
    if (joint.type == JointType::kPrismatic) {
      const JointLimits& l = model.dof_limits[joint.dof];
      if (!l.bounded) return {bound.center, std::numeric_limits<double>::infinity()};
      const double stroke = std::max(std::abs(joint.multiplier * l.lower + joint.offset),
                                     std::abs(joint.multiplier * l.upper + joint.offset));
      radius += stroke;
    }
  }
  bound.radius = radius + model.tip_offset.translation().norm() + tool.translation().norm();
  return bound;
}

}  // namespace motion
