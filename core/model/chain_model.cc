#include "core/model/chain_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/model/effort_acceleration.h"
#include "core/model/internal/kdl_frames.h"

namespace motion {
namespace {

JointLimits LimitsOf(const JointDescription& d) {
  JointLimits l;
  if (d.kind == JointDescription::Kind::kContinuous) {
    l.bounded = false;
    l.lower = -std::numeric_limits<double>::infinity();
    l.upper = std::numeric_limits<double>::infinity();
  } else {
    l.lower = d.lower;
    l.upper = d.upper;
  }
  if (d.velocity > 0) {
    l.max_velocity = d.velocity;
    l.velocity_source = "urdf";
  } else if (d.kind == JointDescription::Kind::kPrismatic) {
    l.max_velocity = kDefaultPrismaticVelocity;
    l.velocity_source = "default: URDF gives none, 0.25 m/s";
  } else {
    l.max_velocity = kDefaultRotaryVelocity;
    l.velocity_source = "default: URDF gives none, 1 rad/s";
  }
  l.max_acceleration = kDefaultAccelerationPerVelocity * l.max_velocity;
  l.acceleration_source = kDefaultAccelerationSource;
  l.max_jerk = kDefaultJerkPerAcceleration * l.max_acceleration;
  l.jerk_source = kDefaultJerkSource;
  if (d.effort > 0) {
    l.max_torque = d.effort;
    l.torque_source = "urdf";
  } else {
    l.torque_source = "unknown: URDF effort is 0";
  }
  return l;
}

JointType TypeOf(JointDescription::Kind kind) {
  switch (kind) {
    case JointDescription::Kind::kContinuous:
      return JointType::kContinuous;
    case JointDescription::Kind::kPrismatic:
      return JointType::kPrismatic;
    default:
      return JointType::kRevolute;
  }
}

BodyInertia BodyOf(const KDL::RigidBodyInertia& kdl) {
  BodyInertia body;
  body.mass = kdl.getMass();
  const KDL::Vector c = kdl.getCOG();
  body.center_of_mass = Eigen::Vector3d(c.x(), c.y(), c.z());
  // KDL keeps the inertia about the frame origin; move it to the centre of mass.
  const Eigen::Matrix3d about_origin = Eigen::Map<const Eigen::Matrix3d>(
      kdl.getRotationalInertia().data);  // symmetric: storage order does not matter
  body.inertia =
      about_origin - body.mass * (body.center_of_mass.squaredNorm() * Eigen::Matrix3d::Identity() -
                                  body.center_of_mass * body.center_of_mass.transpose());
  return body;
}

// A side branch's own joints at rest: 0, clamped into the joint's limits (a gripper's fingers
// closed or at their lower stop); the branch's pose is then fixed relative to the chain.
double RestValue(const KDL::Segment& segment, const JointDescriptions& descriptions) {
  const auto found = descriptions.find(segment.getJoint().getName());
  if (found == descriptions.end()) return 0.0;
  const JointDescription& d = found->second;
  if (d.kind != JointDescription::Kind::kRevolute && d.kind != JointDescription::Kind::kPrismatic) {
    return 0.0;
  }
  return std::clamp(0.0, std::min(d.lower, d.upper), std::max(d.lower, d.upper));
}

// Adds to `body` (in frame B) every segment below `element` except `skip`, with X_B_element the
// pose of element's frame in B.
void FoldSubtree(const KDL::TreeElement& element, const Eigen::Isometry3d& X_B_element,
                 absl::string_view skip, const JointDescriptions& descriptions, BodyInertia& body) {
  std::vector<std::pair<const KDL::TreeElement*, Eigen::Isometry3d>> stack;
  for (const auto& child : GetTreeElementChildren(element)) {
    if (child->first != skip) stack.push_back({&child->second, X_B_element});
  }
  while (!stack.empty()) {
    const auto [e, X_B_parent] = stack.back();
    stack.pop_back();
    const KDL::Segment& segment = GetTreeElementSegment(*e);
    const Eigen::Isometry3d X_B_link =
        X_B_parent * ToEigen(segment.pose(RestValue(segment, descriptions)));
    body = Combined(body, ExpressedIn(BodyOf(segment.getInertia()), X_B_link));
    for (const auto& child : GetTreeElementChildren(*e))
      stack.push_back({&child->second, X_B_link});
  }
}

// Links that hang off a moving chain link without being on the chain (a gripper on a flange
// the chain ends before, a camera mount, a tool changer) move with that link: their mass is
// part of its body, posed with their own joints at rest.
void FoldSideBranches(const KDL::Tree& tree, const JointDescriptions& descriptions,
                      ChainModel& model) {
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    const ChainLink& link = model.links[i];
    if (link.after_joint < 0) continue;  // fixed to the base: never moves
    const absl::string_view next =
        i + 1 < model.links.size() ? absl::string_view(model.links[i + 1].name) : "";
    const auto element = tree.getSegment(link.name);
    FoldSubtree(element->second, link.offset, next, descriptions, model.bodies[link.after_joint]);
  }
}

bool Movable(JointDescription::Kind kind) {
  return kind == JointDescription::Kind::kRevolute || kind == JointDescription::Kind::kContinuous ||
         kind == JointDescription::Kind::kPrismatic;
}

// True when `ancestor` is on the path from the tree root to `link`.
bool IsBelow(const KDL::Tree& tree, absl::string_view link, absl::string_view ancestor) {
  auto it = tree.getSegment(std::string(link));
  const auto root = tree.getRootSegment();
  while (it != root) {
    it = GetTreeElementParent(it->second);
    if (it->first == ancestor) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const ChainModel>> ChainModel::Build(
    const KDL::Tree& tree, const JointDescriptions& descriptions, absl::string_view base_link,
    absl::string_view tip_link, const ModelLimits& limits) {
  const auto& segments = tree.getSegments();
  if (segments.find(std::string(base_link)) == segments.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("base_link: no link named ", QuoteUntrusted(base_link), " in this URDF"));
  }
  if (segments.find(std::string(tip_link)) == segments.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tip_link: no link named ", QuoteUntrusted(tip_link), " in this URDF"));
  }
  if (!IsBelow(tree, tip_link, base_link)) {
    return absl::InvalidArgumentError(absl::StrCat("tip_link: ", QuoteUntrusted(tip_link),
                                                   " is not below base_link ",
                                                   QuoteUntrusted(base_link), " in the URDF tree"));
  }

  auto model = std::make_shared<ChainModel>();
  model->base_link = std::string(base_link);
  model->tip_link = std::string(tip_link);
  if (!tree.getChain(model->base_link, model->tip_link, model->kdl_chain)) {
    return absl::InternalError("KDL could not extract the chain");
  }
  model->links.push_back({model->base_link, -1, Eigen::Isometry3d::Identity()});

  std::map<std::string, int, std::less<>> dof_of;  // DOF name -> index
  Eigen::Isometry3d pending = Eigen::Isometry3d::Identity();
  std::vector<std::string> body_link;  // per joint: its child link, for messages
  for (const KDL::Segment& segment : model->kdl_chain.segments) {
    const std::string& joint_name = segment.getJoint().getName();
    const auto found = descriptions.find(joint_name);
    if (found == descriptions.end()) {
      return absl::InternalError(
          absl::StrCat("joint ", QuoteUntrusted(joint_name), " has no description"));
    }
    const JointDescription& d = found->second;
    if (d.kind == JointDescription::Kind::kUnsupported) {
      return absl::InvalidArgumentError(absl::StrCat(
          "chain ", QuoteUntrusted(base_link), " -> ", QuoteUntrusted(tip_link), ": joint ",
          QuoteUntrusted(joint_name), " is ", QuoteUntrusted(d.urdf_type),
          "; only revolute, continuous, prismatic and fixed joints can be in a chain"));
    }
    const Eigen::Isometry3d origin = ToEigen(segment.getFrameToTip());
    if (d.kind == JointDescription::Kind::kFixed) {
      pending = pending * origin;
      if (!model->bodies.empty()) {  // links fixed to the base never move
        model->bodies.back() =
            Combined(model->bodies.back(), ExpressedIn(BodyOf(segment.getInertia()), pending));
      }
      model->links.push_back(
          {segment.getName(), static_cast<int>(model->joints.size()) - 1, pending});
      continue;
    }

    ChainJoint joint;
    joint.name = joint_name;
    joint.type = TypeOf(d.kind);
    joint.origin = pending * origin;
    // KDL stores the axis in the parent frame; bring it back to the joint
    // frame (origin.M^T * axis) and normalise ("0 0 2" means +Z).
    joint.axis = origin.linear().transpose() * Eigen::Vector3d(segment.getJoint().JointAxis().x(),
                                                               segment.getJoint().JointAxis().y(),
                                                               segment.getJoint().JointAxis().z());
    joint.axis.normalize();

    // The DOF this joint moves with: its own, or its (resolved) master's.
    std::string dof_name = joint_name;
    const JointDescription* dof_description = &d;
    if (d.mimic) {
      dof_name = d.mimic->master;
      joint.multiplier = d.mimic->multiplier;
      joint.offset = d.mimic->offset;
      dof_description = &descriptions.find(dof_name)->second;
      if (!Movable(dof_description->kind)) {
        return absl::InvalidArgumentError(absl::StrCat("joint ", QuoteUntrusted(joint_name),
                                                       " mimics ", QuoteUntrusted(dof_name),
                                                       ", which is not movable"));
      }
      model->mimics.push_back({joint_name, dof_name, joint.multiplier, joint.offset});
    }
    auto [it, inserted] = dof_of.emplace(dof_name, model->dof());
    if (inserted) {
      model->dof_names.push_back(dof_name);
      model->dof_types.push_back(TypeOf(dof_description->kind));
      model->dof_limits.push_back(LimitsOf(*dof_description));
    }
    joint.dof = it->second;
    model->joints.push_back(std::move(joint));
    model->bodies.push_back(BodyOf(segment.getInertia()));
    body_link.push_back(segment.getName());
    pending = Eigen::Isometry3d::Identity();
    model->links.push_back(
        {segment.getName(), static_cast<int>(model->joints.size()) - 1, pending});
  }
  model->tip_offset = pending;
  FoldSideBranches(tree, descriptions, *model);
  for (std::size_t k = 0; k < model->joints.size() && model->dynamics_missing.empty(); ++k) {
    const ChainJoint& joint = model->joints[k];
    if (!(model->bodies[k].mass > 0)) {
      model->dynamics_missing =
          absl::StrCat("link ", QuoteUntrusted(body_link[k]), " (moved by joint ",
                       QuoteUntrusted(joint.name), ") has no <inertial> or zero mass");
    } else if (!(model->dof_limits[joint.dof].max_torque > 0)) {
      model->dynamics_missing = absl::StrCat("joint ", QuoteUntrusted(model->dof_names[joint.dof]),
                                             " has no effort limit (URDF effort is 0)");
    }
  }

  if (model->dof() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("tip_link: chain ", QuoteUntrusted(base_link),
                                                   " -> ", QuoteUntrusted(tip_link),
                                                   " has no movable joint"));
  }
  if (model->dof() > limits.max_chain_dof) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tip_link: chain ", QuoteUntrusted(base_link), " -> ", QuoteUntrusted(tip_link), " has ",
        model->dof(), " degrees of freedom; the limit is ", limits.max_chain_dof));
  }
  // Where the URDF's dynamics are complete, accelerations are what the efforts allow.
  if (model->dynamics_missing.empty()) UseEffortAccelerations(*model, model->dof_limits);

  return std::shared_ptr<const ChainModel>(std::move(model));
}

}  // namespace motion
