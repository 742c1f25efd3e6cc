#include "core/kinematics/forward_kinematics.h"

#include "core/model/joint_motion.h"

namespace motion {

Eigen::Isometry3d ForwardKinematics(const ChainModel& model, ChainData& data,
                                    const Eigen::Ref<const Eigen::VectorXd>& q) {
  Eigen::Isometry3d frame = Eigen::Isometry3d::Identity();
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ChainJoint& joint = model.joints[k];
    const double theta = joint.multiplier * q[joint.dof] + joint.offset;
    data.joint_values[k] = theta;
    frame = frame * joint.origin * JointMotion(joint, theta);
    data.joint_frames[k] = frame;
  }
  return frame * model.tip_offset;
}

std::vector<LinkPose> LinkPoses(const ChainModel& model, const ChainData& data) {
  std::vector<LinkPose> out;
  out.reserve(model.links.size());
  for (const ChainLink& link : model.links) {
    const Eigen::Isometry3d parent =
        link.after_joint < 0 ? Eigen::Isometry3d::Identity() : data.joint_frames[link.after_joint];
    out.push_back({link.name, parent * link.offset});
  }
  return out;
}

}  // namespace motion
