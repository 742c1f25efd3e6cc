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

// kdl_parser's convention: KDL wants the centre of mass and the inertia in
// the link frame, URDF gives the inertia in the <inertial><origin> frame, so
// rotate it by the origin's rpy (I_link = R I R^T); the mass is frame-free.
KDL::RigidBodyInertia ToKdl(const urdf::Inertial* inertial) {
  if (inertial == nullptr) return KDL::RigidBodyInertia::Zero();
  const KDL::Frame origin = ToKdl(inertial->origin);
  const KDL::RotationalInertia about_com(inertial->ixx, inertial->iyy, inertial->izz, inertial->ixy,
                                         inertial->ixz, inertial->iyz);
  // RigidBodyInertia with a zero centre of mass rotates its inertia exactly.
  const KDL::RotationalInertia rotated =
      (origin.M * KDL::RigidBodyInertia(0, KDL::Vector::Zero(), about_com)).getRotationalInertia();
  return KDL::RigidBodyInertia(inertial->mass, origin.p, rotated);
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
      // The root link's inertial is dropped (KDL trees have no root
      // segment); it never moves, so no chain's dynamics need it.
      KDL::Segment segment(child->name, ToKdl(joint), ToKdl(joint.parent_to_joint_origin_transform),
                           ToKdl(child->inertial.get()));
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
