#include "core/collision/collision_checker.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/collision/internal/fcl_geometry.h"
#include "core/collision/internal/fcl_scene.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

// Every pair's outcome goes through here: contacts merged per (link,
// other) with the deepest kept, and the nearest pair.
class Findings {
 public:
  void Add(const std::string& link, const std::string& other, const PairOutcome& outcome,
           bool with_distance) {
    if (with_distance && outcome.distance < verdict_.min_distance) {
      verdict_.min_distance = outcome.distance;
      verdict_.nearest_link = link;
      verdict_.nearest_other = other;
    }
    if (!outcome.in_contact) return;
    auto [it, added] = index_.emplace(std::make_pair(link, other), verdict_.contacts.size());
    if (added) {
      verdict_.contacts.push_back({link, other, outcome.depth});
    } else {
      verdict_.contacts[it->second].depth =
          std::max(verdict_.contacts[it->second].depth, outcome.depth);
    }
    verdict_.in_collision = true;
  }
  CollisionVerdict Take() { return std::move(verdict_); }

 private:
  CollisionVerdict verdict_;
  std::map<std::pair<std::string, std::string>, std::size_t> index_;
};

}  // namespace

CollisionVerdict CheckCollision(const ChainModel& chain, ChainData& data,
                                const RobotCollisionModel& robot, const CollisionScene& scene,
                                const Eigen::VectorXd& q, const CollisionQuery& query) {
  ForwardKinematics(chain, data, q);
  const std::vector<LinkPose> poses = LinkPoses(chain, data);
  const std::vector<LinkCollisionGeometry>& links = robot.links();
  const RobotCollisionModel::Engine& engine = robot.engine();
  // This query's placements of the robot's shapes (the geometry is shared).
  std::vector<std::vector<fcl::CollisionObjectd>> placed(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Eigen::Isometry3d& frame = poses[links[i].chain_link].pose;
    placed[i].reserve(links[i].shapes.size());
    for (std::size_t s = 0; s < links[i].shapes.size(); ++s) {
      placed[i].emplace_back(engine.geometry[i][s], frame * links[i].shapes[s].origin);
      placed[i].back().computeAABB();
    }
  }
  const bool with_distance = query.compute_distance;
  const double margin = query.safety_margin;
  // Without a distance to report, pairs whose boxes are farther apart than
  // the margin cannot touch.
  auto may_touch = [&](const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b) {
    if (with_distance) return true;
    if (margin <= 0) return a.getAABB().overlap(b.getAABB());
    return a.getAABB().distance(b.getAABB()) <= margin;
  };
  Findings findings;
  const std::vector<fcl::CollisionObjectd>& obstacles = scene.engine().objects;
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (const fcl::CollisionObjectd& shape : placed[i]) {
      for (std::size_t o = 0; o < obstacles.size(); ++o) {
        if (!may_touch(shape, obstacles[o])) continue;
        findings.Add(links[i].link, scene.objects()[o].id,
                     TestPair(shape, obstacles[o], with_distance, margin), with_distance);
      }
    }
  }
  if (query.self_collision) {
    for (const auto& [a, b] : robot.self_pairs()) {
      for (const fcl::CollisionObjectd& sa : placed[a]) {
        for (const fcl::CollisionObjectd& sb : placed[b]) {
          if (!may_touch(sa, sb)) continue;
          findings.Add(links[a].link, links[b].link, TestPair(sa, sb, with_distance, margin),
                       with_distance);
        }
      }
    }
  }
  return findings.Take();
}

}  // namespace motion
