#include "core/collision/collision_checker.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "core/collision/internal/fcl_scene.h"
#include "core/collision/internal/placed_shapes.h"
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
  PlacedRobot placed;
  placed.Place(chain, data, robot);
  const bool with_distance = query.compute_distance;
  const double margin = query.safety_margin;
  // Every pair to consider, with a lower bound on its distance from the
  // shapes' bounding spheres and boxes. Pairs that may be in contact
  // (bound within the margin) are always tested exactly; for the minimum
  // distance the others only when their bound is below the best distance
  // found so far (no other can be nearer).
  struct Candidate {
    const Primitive* a;
    const Primitive* b;
    const std::string* link;
    const std::string* other;
    double bound;
  };
  std::vector<Candidate> candidates;
  auto consider = [&](const Primitive& a, const Primitive& b, const std::string& link,
                      const std::string& other) {
    if (!with_distance) {
      // Squared, without a root: most pairs end here.
      const double reach = margin + a.bounding_radius + b.bounding_radius;
      if ((a.centre - b.centre).squaredNorm() > reach * reach || BoxGap(a, b) > margin) return;
    }
    candidates.push_back({&a, &b, &link, &other, std::max(SphereGap(a, b), BoxGap(a, b))});
  };
  const std::vector<Primitive>& obstacles = scene.engine().primitives;
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (int s = 0; s < placed.shape_count(static_cast<int>(i)); ++s) {
      for (std::size_t o = 0; o < obstacles.size(); ++o) {
        if (query.allowed && query.allowed->LinkObject(static_cast<int>(i), static_cast<int>(o))) {
          continue;
        }
        consider(placed.shape(static_cast<int>(i), s), obstacles[o], links[i].link,
                 scene.objects()[o].id);
      }
    }
  }
  if (query.self_collision) {
    for (const auto& [a, b] : robot.self_pairs()) {
      if (query.allowed && query.allowed->LinkPair(a, b)) continue;
      for (int sa = 0; sa < placed.shape_count(a); ++sa) {
        for (int sb = 0; sb < placed.shape_count(b); ++sb) {
          consider(placed.shape(a, sa), placed.shape(b, sb), links[a].link, links[b].link);
        }
      }
    }
  }
  Findings findings;
  FclPlacements fcl;
  auto test = [&](const Candidate& c) {
    const PairOutcome outcome = TestShapes(query.engine, *c.a, *c.b, with_distance, margin, fcl);
    findings.Add(*c.link, *c.other, outcome, with_distance);
    return outcome;
  };
  if (!with_distance) {
    for (const Candidate& c : candidates) test(c);
    return findings.Take();
  }
  // The pair of smallest bound first: its distance is usually near the
  // minimum, and then only pairs whose bound is below the best found (or
  // within the margin) are tested, in any order (a sort or a heap of every
  // pair cost more than the tests it saved).
  std::size_t first = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i].bound < candidates[first].bound) first = i;
  }
  double best = std::numeric_limits<double>::infinity();
  if (!candidates.empty()) best = test(candidates[first]).distance;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (i == first || (c.bound > margin && c.bound >= best)) continue;
    best = std::min(best, test(c).distance);
  }
  return findings.Take();
}

}  // namespace motion
