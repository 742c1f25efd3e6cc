#include "core/collision/collision_checker.h"

#include <algorithm>
#include <limits>
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
  const std::vector<LinkCollisionGeometry>& links = robot.links();
  const RobotCollisionModel::Engine& engine = robot.engine();
  // This query's placements of the robot's shapes (the geometry is shared).
  std::vector<std::vector<fcl::CollisionObjectd>> placed(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Eigen::Isometry3d frame = ChainLinkFrame(chain, data, links[i].chain_link);
    placed[i].reserve(links[i].shapes.size());
    for (std::size_t s = 0; s < links[i].shapes.size(); ++s) {
      placed[i].emplace_back(engine.geometry[i][s], frame * links[i].shapes[s].origin);
      placed[i].back().computeAABB();
    }
  }
  const bool with_distance = query.compute_distance;
  const double margin = query.safety_margin;
  // Every pair to consider, with a lower bound on its distance from the
  // shapes' bounding spheres. Pairs that may be in contact (bound within
  // the margin) are always tested exactly; for the minimum distance the
  // others are tested nearest bound first, until a bound exceeds the best
  // distance found (none of the rest can be nearer).
  struct Candidate {
    const fcl::CollisionObjectd* a;
    const fcl::CollisionObjectd* b;
    const std::string* link;
    const std::string* other;
    double bound;
  };
  std::vector<Candidate> candidates;
  auto consider = [&](const fcl::CollisionObjectd& a, double ra, const fcl::CollisionObjectd& b,
                      double rb, const std::string& link, const std::string& other) {
    const double bound = (a.getTranslation() - b.getTranslation()).norm() - ra - rb;
    if (!with_distance && bound > margin) return;
    if (!with_distance && !(margin > 0 ? a.getAABB().distance(b.getAABB()) <= margin
                                       : a.getAABB().overlap(b.getAABB()))) {
      return;
    }
    candidates.push_back({&a, &b, &link, &other, bound});
  };
  const std::vector<fcl::CollisionObjectd>& obstacles = scene.engine().objects;
  const std::vector<double>& obstacle_radius = scene.engine().radius;
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (std::size_t s = 0; s < placed[i].size(); ++s) {
      for (std::size_t o = 0; o < obstacles.size(); ++o) {
        if (query.allowed && query.allowed->LinkObject(static_cast<int>(i), static_cast<int>(o))) {
          continue;
        }
        consider(placed[i][s], engine.radius[i][s], obstacles[o], obstacle_radius[o], links[i].link,
                 scene.objects()[o].id);
      }
    }
  }
  if (query.self_collision) {
    for (const auto& [a, b] : robot.self_pairs()) {
      if (query.allowed && query.allowed->LinkPair(a, b)) continue;
      for (std::size_t sa = 0; sa < placed[a].size(); ++sa) {
        for (std::size_t sb = 0; sb < placed[b].size(); ++sb) {
          consider(placed[a][sa], engine.radius[a][sa], placed[b][sb], engine.radius[b][sb],
                   links[a].link, links[b].link);
        }
      }
    }
  }
  Findings findings;
  if (with_distance) {
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& x, const Candidate& y) { return x.bound < y.bound; });
  }
  double best = std::numeric_limits<double>::infinity();
  for (const Candidate& c : candidates) {
    if (with_distance && c.bound > margin && c.bound >= best) break;
    const PairOutcome outcome = TestPair(*c.a, *c.b, with_distance, margin);
    if (with_distance) best = std::min(best, outcome.distance);
    findings.Add(*c.link, *c.other, outcome, with_distance);
  }
  return findings.Take();
}

}  // namespace motion
