#include "core/model/internal/urdf_to_kdl_tree.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace motion {
namespace {

KDL::Vector ToKdl(const urdf::Vector3& v) { return KDL::Vector(v.x, v.y, v.z); }

KDL::Frame ToKdl(const urdf::Pose& pose) {
  return KDL::Frame(
      KDL::Rotation::Quaternion(pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w),
      ToKdl(pose.position));
}

KDL::Joint ToKdl(const urdf::Joint& joint) {
  const KDL::Frame origin = ToKdl(joint.parent_to_joint_origin_transform);
  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      return KDL::Joint(joint.name, origin.p, origin.M * ToKdl(joint.axis), KDL::Joint::RotAxis);
    case urdf::Joint::PRISMATIC:
      return KDL::Joint(joint.name, origin.p, origin.M * ToKdl(joint.axis), KDL::Joint::TransAxis);
    default:
      return KDL::Joint(joint.name, KDL::Joint::Fixed);
  }
}

}  // namespace

absl::StatusOr<KDL::Tree> UrdfToKdlTree(const urdf::ModelInterface& model) {
  const urdf::LinkConstSharedPtr root = model.getRoot();
  KDL::Tree tree(root->name);
  std::vector<const urdf::Link*> stack{root.get()};
  while (!stack.empty()) {
    const urdf::Link* parent = stack.back();
    stack.pop_back();
    for (const auto& child : parent->child_links) {
      const urdf::Joint& joint = *child->parent_joint;
      // Inertia is not needed for kinematics; KDL would warn about the
      // root's, and a zero inertia keeps the tree purely geometric.
      KDL::Segment segment(child->name, ToKdl(joint),
                           ToKdl(joint.parent_to_joint_origin_transform));
      if (!tree.addSegment(segment, parent->name)) {
        return absl::InvalidArgumentError(absl::StrCat("urdf: could not attach link '", child->name,
                                                       "' below '", parent->name, "'"));
      }
      stack.push_back(child.get());
    }
  }
  return tree;
}

}  // namespace motion
