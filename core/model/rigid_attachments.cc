#include "core/model/rigid_attachments.h"

#include <set>

#include <kdl/tree.hpp>

#include "core/model/internal/kdl_frames.h"

namespace motion {

std::vector<RigidAttachment> RigidAttachments(const RobotModel& robot, const ChainModel& chain) {
  std::set<std::string> on_chain;
  for (const ChainLink& link : chain.links) on_chain.insert(link.name);
  const KDL::SegmentMap& segments = robot.tree().getSegments();
  std::vector<RigidAttachment> out;
  // Depth first through fixed joints; the tree has no cycles (the URDF
  // loader refuses them), so the walk ends.
  struct Pending {
    KDL::SegmentMap::const_iterator segment;
    int chain_link;
    Eigen::Isometry3d offset;
  };
  for (int i = 0; i < static_cast<int>(chain.links.size()); ++i) {
    auto it = segments.find(chain.links[i].name);
    if (it == segments.end()) continue;
    std::vector<Pending> stack;
    for (const auto& child : GetTreeElementChildren(it->second)) {
      stack.push_back({child, i, Eigen::Isometry3d::Identity()});
    }
    while (!stack.empty()) {
      Pending p = stack.back();
      stack.pop_back();
      const KDL::Segment& segment = GetTreeElementSegment(p.segment->second);
      if (on_chain.count(segment.getName()) || segment.getJoint().getType() != KDL::Joint::Fixed) {
        continue;
      }
      RigidAttachment a;
      a.link = segment.getName();
      a.chain_link = p.chain_link;
      a.offset = p.offset * ToEigen(segment.pose(0.0));
      for (const auto& child : GetTreeElementChildren(p.segment->second)) {
        a.child_origins.push_back(
            ToEigen(GetTreeElementSegment(child->second).pose(0.0)).translation());
        stack.push_back({child, p.chain_link, a.offset});
      }
      out.push_back(std::move(a));
    }
  }
  return out;
}

}  // namespace motion
