#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Pose of the tip link in the base frame for joint values `q`
/// (size model.dof(), rad / m, not checked here: see CheckJointVector).
///
/// F_k = F_{k-1} * origin_k * Motion_k(theta_k) for every movable joint, then
/// tip = F_last * tip_offset. Fills data.joint_frames for Jacobian/LinkPoses.
Eigen::Isometry3d ForwardKinematics(const ChainModel& model, ChainData& data,
                                    const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief A link of the chain and its pose in the base frame.
struct LinkPose {
  std::string link;
  Eigen::Isometry3d pose;
};

/// \brief Poses of every link from base to tip, from the joint frames of the
/// last ForwardKinematics call on `data`.
std::vector<LinkPose> LinkPoses(const ChainModel& model, const ChainData& data);

}  // namespace motion
