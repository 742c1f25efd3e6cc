#include "core/model/joint_description.h"

namespace motion {
namespace {

JointDescription::Kind KindOf(int urdf_type) {
  switch (urdf_type) {
    case urdf::Joint::REVOLUTE:
      return JointDescription::Kind::kRevolute;
    case urdf::Joint::CONTINUOUS:
      return JointDescription::Kind::kContinuous;
    case urdf::Joint::PRISMATIC:
      return JointDescription::Kind::kPrismatic;
    case urdf::Joint::FIXED:
      return JointDescription::Kind::kFixed;
    default:
      return JointDescription::Kind::kUnsupported;
  }
}

const char* UrdfTypeName(int urdf_type) {
  switch (urdf_type) {
    case urdf::Joint::REVOLUTE:
      return "revolute";
    case urdf::Joint::CONTINUOUS:
      return "continuous";
    case urdf::Joint::PRISMATIC:
      return "prismatic";
    case urdf::Joint::FIXED:
      return "fixed";
    case urdf::Joint::FLOATING:
      return "floating";
    case urdf::Joint::PLANAR:
      return "planar";
    default:
      return "unknown";
  }
}

}  // namespace

JointDescriptions DescribeJoints(const urdf::ModelInterface& model) {
  JointDescriptions out;
  for (const auto& [name, joint] : model.joints_) {
    JointDescription d;
    d.kind = KindOf(joint->type);
    d.urdf_type = UrdfTypeName(joint->type);
    if (joint->limits) {
      d.lower = joint->limits->lower;
      d.upper = joint->limits->upper;
      d.velocity = joint->limits->velocity;
      d.effort = joint->limits->effort;
    }
    if (joint->mimic) {
      JointDescription::Mimic m{joint->mimic->joint_name, joint->mimic->multiplier,
                                joint->mimic->offset};
      // Compose q = m1 (m2 q + o2) + o1 down to the independent joint.
      for (auto it = model.joints_.find(m.master); it != model.joints_.end() && it->second->mimic;
           it = model.joints_.find(m.master)) {
        const auto& next = *it->second->mimic;
        m.offset += m.multiplier * next.offset;
        m.multiplier *= next.multiplier;
        m.master = next.joint_name;
      }
      d.mimic = m;
    }
    out.emplace(name, std::move(d));
  }
  return out;
}

}  // namespace motion
