#include "core/model/default_chain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"

namespace motion {
namespace {

bool IsMovable(const urdf::Joint& joint) {
  return joint.type == urdf::Joint::REVOLUTE || joint.type == urdf::Joint::CONTINUOUS ||
         joint.type == urdf::Joint::PRISMATIC;
}

bool IsIdentityRotation(const urdf::Joint& joint) {
  double x, y, z, w;
  joint.parent_to_joint_origin_transform.rotation.getQuaternion(x, y, z, w);
  return std::sqrt(x * x + y * y + z * z) < 1e-9;
}

bool HasMovableChild(const urdf::Link& link) {
  return std::any_of(link.child_joints.begin(), link.child_joints.end(),
                     [](const auto& j) { return IsMovable(*j); });
}

// Fixed children of `link` the tip walk may enter (see header, step 4).
std::vector<const urdf::Link*> FixedFrameChildren(const urdf::Link& link) {
  std::vector<const urdf::Link*> out;
  for (const auto& child : link.child_links) {
    if (child->parent_joint->type == urdf::Joint::FIXED && !HasMovableChild(*child)) {
      out.push_back(child.get());
    }
  }
  return out;
}

const urdf::Link* FindTool0(const urdf::Link& start) {
  std::vector<const urdf::Link*> stack{&start};
  while (!stack.empty()) {
    const urdf::Link* link = stack.back();
    stack.pop_back();
    if (link->name == "tool0") return link;
    for (const urdf::Link* child : FixedFrameChildren(*link)) stack.push_back(child);
  }
  return nullptr;
}

std::string WalkToFlange(const urdf::Link& last_arm_link) {
  const urdf::Link* current = &last_arm_link;
  for (;;) {
    auto children = FixedFrameChildren(*current);
    if (children.empty()) return current->name;
    std::sort(children.begin(), children.end(), [](const urdf::Link* a, const urdf::Link* b) {
      const bool ia = IsIdentityRotation(*a->parent_joint);
      const bool ib = IsIdentityRotation(*b->parent_joint);
      if (ia != ib) return ia;
      return a->name < b->name;
    });
    current = children.front();
  }
}

// Step 1: the root link, or the single fixed child of a root named 'world'
// (a virtual link placing the robot), with the reason in words.
const urdf::Link* ChooseBase(const urdf::ModelInterface& model, std::string* reason) {
  const urdf::Link* base = model.getRoot().get();
  *reason = absl::StrCat("base '", base->name, "' is the root link");
  if (base->name == "world" && base->child_joints.size() == 1 &&
      base->child_joints[0]->type == urdf::Joint::FIXED) {
    base = base->child_links[0].get();
    *reason =
        absl::StrCat("base '", base->name, "' is the fixed child of the virtual root link 'world'");
  }
  return base;
}

// Every joint in a mimic relation, follower and master: the gripper.
std::set<std::string> GripperJoints(const JointDescriptions& joints) {
  std::set<std::string> gripper_joints;
  for (const auto& [name, d] : joints) {
    if (!d.mimic) continue;
    gripper_joints.insert(name);
    gripper_joints.insert(d.mimic->master);
  }
  return gripper_joints;
}

// Step 2: one walk of the tree below base, counting arm DOF (movable
// joints not in the gripper and not behind it) and independent DOF per link.
struct TreeWalk {
  const urdf::Link* last_arm_link = nullptr;  ///< child of the deepest arm joint
  int arm_dof = 0;
  std::vector<ChainCandidate> leaves;  ///< base -> every leaf, with its DOF
};

TreeWalk WalkArm(const urdf::Link* base, const JointDescriptions& joints,
                 const std::set<std::string>& gripper_joints) {
  struct Visit {
    const urdf::Link* link;
    int arm_dof;
    int dof;  // independent joints on the path (mimic followers of an on-path master excluded)
    bool behind_gripper;
    std::set<std::string> masters_on_path;
  };
  TreeWalk walk;
  std::vector<Visit> stack{{base, 0, 0, false, {}}};
  while (!stack.empty()) {
    Visit v = std::move(stack.back());
    stack.pop_back();
    if (v.link->child_links.empty() && v.link != base) {
      walk.leaves.push_back({base->name, v.link->name, v.dof});
    }
    for (const auto& child : v.link->child_links) {
      const urdf::Joint& joint = *child->parent_joint;
      Visit next{child.get(), v.arm_dof, v.dof, v.behind_gripper, v.masters_on_path};
      if (IsMovable(joint)) {
        const auto& d = joints.find(joint.name)->second;
        const std::string& dof_name = d.mimic ? d.mimic->master : joint.name;
        if (next.masters_on_path.insert(dof_name).second) ++next.dof;
        if (gripper_joints.count(joint.name)) {
          next.behind_gripper = true;
        } else if (!v.behind_gripper) {
          ++next.arm_dof;
          if (next.arm_dof > walk.arm_dof || (next.arm_dof == walk.arm_dof && walk.last_arm_link &&
                                              child->name < walk.last_arm_link->name)) {
            walk.arm_dof = next.arm_dof;
            walk.last_arm_link = child.get();
          }
        }
      }
      stack.push_back(std::move(next));
    }
  }
  return walk;
}

// Step 3: the tip below the last arm link, and the rule in words.
void ChooseTip(const TreeWalk& walk, const std::string& base_reason, DefaultChain& result) {
  if (walk.last_arm_link == nullptr) {
    result.tip_link = result.base_link;
    result.rule = absl::StrCat(base_reason, "; no movable arm joint below it");
  } else if (const urdf::Link* tool0 = FindTool0(*walk.last_arm_link)) {
    result.tip_link = tool0->name;
    result.rule = absl::StrCat(base_reason, "; tip 'tool0' (REP-199 flange) below '",
                               walk.last_arm_link->name, "', the child of the last of ",
                               walk.arm_dof, " arm joints (mimic/gripper joints excluded)");
  } else {
    result.tip_link = WalkToFlange(*walk.last_arm_link);
    result.rule =
        absl::StrCat(base_reason, "; tip '", result.tip_link, "': fixed frames below '",
                     walk.last_arm_link->name, "', the child of the last of ", walk.arm_dof,
                     " arm joints (mimic/gripper joints excluded), followed "
                     "identity-rotation first and not into a link with movable joints");
  }
}

// Step 4: candidates, the default first, then every leaf with DOF by name.
void ListCandidates(TreeWalk& walk, DefaultChain& result) {
  std::sort(walk.leaves.begin(), walk.leaves.end(),
            [](const auto& a, const auto& b) { return a.tip_link < b.tip_link; });
  int default_dof = walk.arm_dof;
  for (const auto& leaf : walk.leaves) {
    if (leaf.tip_link == result.tip_link) default_dof = leaf.dof;
  }
  result.candidates.push_back({result.base_link, result.tip_link, default_dof});
  constexpr std::size_t kMaxCandidates = 64;
  for (const auto& leaf : walk.leaves) {
    if (result.candidates.size() >= kMaxCandidates) break;
    // A leaf reached through fixed joints only (e.g. a 'base' frame) is no chain.
    if (leaf.tip_link != result.tip_link && leaf.dof > 0) result.candidates.push_back(leaf);
  }
}

}  // namespace

DefaultChain ChooseDefaultChain(const urdf::ModelInterface& model,
                                const JointDescriptions& joints) {
  DefaultChain result;
  std::string base_reason;
  const urdf::Link* base = ChooseBase(model, &base_reason);
  std::set<std::string> gripper_joints = GripperJoints(joints);
  TreeWalk walk = WalkArm(base, joints, gripper_joints);
  // A URDF that is only a gripper (every movable joint in a mimic
  // relation) has no arm joint: then its gripper joints are the chain.
  if (walk.last_arm_link == nullptr && !gripper_joints.empty()) {
    gripper_joints.clear();
    walk = WalkArm(base, joints, gripper_joints);
  }
  result.base_link = base->name;
  ChooseTip(walk, base_reason, result);
  ListCandidates(walk, result);
  return result;
}

}  // namespace motion
