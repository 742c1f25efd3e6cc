#include "core/collision/robot_snapshot.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/collision/internal/fcl_scene.h"
#include "core/collision/internal/motion_probe.h"
#include "core/collision/internal/placed_shapes.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A pair of shapes still to decide, with a lower bound on its distance.
struct Candidate {
  const Primitive* a;
  const Primitive* b;
  int item;  // what the pair's distance lowers (a link pair, or nothing)
  double bound;
  bool exact;
};

// The smallest distance over `candidates`, exact: pairs whose bound is
// within `exact_below` are computed, then the one of smallest bound, then
// every other whose bound is below the best found (no other can be
// nearer). `on_exact` sees each computed pair's outcome.
template <typename OnExact>
double NearestOf(std::vector<Candidate>& candidates, double exact_below, double margin,
                 OnExact on_exact) {
  FclPlacements fcl;
  double best = kInfinity;
  auto compute = [&](Candidate& c) {
    const PairOutcome o = TestShapes(CollisionEngine::kFast, *c.a, *c.b, true, margin, fcl);
    c.bound = o.distance;
    c.exact = true;
    best = std::min(best, o.distance);
    on_exact(c, o);
  };
  for (Candidate& c : candidates) {
    if (c.bound <= exact_below) compute(c);
  }
  std::size_t first = candidates.size();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i].exact) continue;
    if (first == candidates.size() || candidates[i].bound < candidates[first].bound) first = i;
  }
  if (first < candidates.size() && candidates[first].bound < best) compute(candidates[first]);
  for (Candidate& c : candidates) {
    if (!c.exact && c.bound < best) compute(c);
  }
  return best;
}

double Bound(const Primitive& a, const Primitive& b) {
  return std::max(SphereGap(a, b), BoxGap(a, b));
}

}  // namespace

struct RobotSnapshot::Impl {
  Probe probe;         // base frame: joint origins and shapes for the motion bound
  PlacedRobot placed;  // the shared frame
  std::vector<int> shape_counts;
  Eigen::AlignedBox3d box;
};

RobotSnapshot::RobotSnapshot() : impl_(std::make_unique<Impl>()) {}
RobotSnapshot::~RobotSnapshot() = default;
RobotSnapshot::RobotSnapshot(RobotSnapshot&&) noexcept = default;
RobotSnapshot& RobotSnapshot::operator=(RobotSnapshot&&) noexcept = default;

const Eigen::AlignedBox3d& RobotSnapshot::box() const { return impl_->box; }

struct RobotPlacer::Impl {
  Impl(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
       const Eigen::Isometry3d& X_CB)
      : chain(chain),
        data(data),
        robot(robot),
        X_CB(X_CB),
        empty(CollisionScene::Empty()),
        prober(chain, data, robot, *empty, Options()) {}

  // Kept for its motion bound (Place fills the probes it reads); no scene
  // and no self pairs: the other robots are the obstacles, checked by
  // LinkPairDistances.
  static TrajectoryCollisionOptions Options() {
    TrajectoryCollisionOptions options;
    options.self_collision = false;
    return options;
  }

  const ChainModel& chain;
  ChainData& data;
  const RobotCollisionModel& robot;
  Eigen::Isometry3d X_CB;
  std::shared_ptr<const CollisionScene> empty;
  Prober prober;
};

RobotPlacer::RobotPlacer(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
                         const Eigen::Isometry3d& X_CB)
    : robot_(robot), impl_(std::make_unique<Impl>(chain, data, robot, X_CB)) {}

RobotPlacer::~RobotPlacer() = default;

void RobotPlacer::Place(const Eigen::VectorXd& q, RobotSnapshot& snapshot) {
  RobotSnapshot::Impl& s = snapshot.impl();
  // One FK and one placement, in the shared frame: the motion bound reads
  // only distances between joint origins and shapes, which the frame does
  // not change.
  ForwardKinematics(impl_->chain, impl_->data, q);
  s.placed.Place(impl_->chain, impl_->data, robot_, &impl_->X_CB);
  s.probe.joint_origins.clear();
  for (const Eigen::Isometry3d& F : impl_->data.joint_frames) {
    s.probe.joint_origins.push_back(impl_->X_CB * F.translation());
  }
  s.probe.shapes.clear();
  const int links = link_count();
  s.shape_counts.resize(links);
  s.box.setEmpty();
  for (int i = 0; i < links; ++i) {
    s.shape_counts[i] = s.placed.shape_count(i);
    for (int k = 0; k < s.shape_counts[i]; ++k) {
      const Primitive& p = s.placed.shape(i, k);
      s.probe.shapes.emplace_back(p.centre, p.bounding_radius);
      s.box.extend(p.box_min);
      s.box.extend(p.box_max);
    }
  }
}

double RobotPlacer::LinkMotionBounds(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb,
                                     const RobotSnapshot& a, const RobotSnapshot& b,
                                     std::vector<double>& bounds) {
  const double largest = impl_->prober.MotionBound(qa, qb, a.impl().probe, b.impl().probe);
  bounds = impl_->prober.link_bounds();
  return largest;
}

double LinkPairDistances(const RobotSnapshot& a, const RobotSnapshot& b, double margin,
                         double threshold, std::vector<double>& distances,
                         std::vector<LinkPairContact>& contacts) {
  const RobotSnapshot::Impl& sa = a.impl();
  const RobotSnapshot::Impl& sb = b.impl();
  const int na = static_cast<int>(sa.shape_counts.size());
  const int nb = static_cast<int>(sb.shape_counts.size());
  distances.assign(static_cast<std::size_t>(na) * nb, kInfinity);
  contacts.clear();
  static thread_local std::vector<Candidate> candidates;
  candidates.clear();
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j) {
      for (int s = 0; s < sa.shape_counts[i]; ++s) {
        for (int t = 0; t < sb.shape_counts[j]; ++t) {
          const Primitive& pa = sa.placed.shape(i, s);
          const Primitive& pb = sb.placed.shape(j, t);
          candidates.push_back({&pa, &pb, i * nb + j, Bound(pa, pb), false});
        }
      }
    }
  }
  std::vector<double> depth(distances.size(), -kInfinity);
  const double nearest = NearestOf(candidates, std::max(threshold, 0.0) + margin, margin,
                                   [&](const Candidate& c, const PairOutcome& o) {
                                     if (o.in_contact) {
                                       depth[c.item] = std::max(depth[c.item], o.depth);
                                     }
                                   });
  for (const Candidate& c : candidates) {
    distances[c.item] = std::min(distances[c.item], c.bound);
  }
  for (std::size_t k = 0; k < depth.size(); ++k) {
    if (depth[k] > -kInfinity) {
      contacts.push_back({static_cast<int>(k) / nb, static_cast<int>(k) % nb, depth[k]});
    }
  }
  return nearest;
}

double SceneDistance(const RobotSnapshot& snapshot, const CollisionScene& scene) {
  const RobotSnapshot::Impl& s = snapshot.impl();
  static thread_local std::vector<Candidate> candidates;
  candidates.clear();
  for (std::size_t i = 0; i < s.shape_counts.size(); ++i) {
    for (int k = 0; k < s.shape_counts[i]; ++k) {
      const Primitive& p = s.placed.shape(static_cast<int>(i), k);
      for (const Primitive& o : scene.engine().primitives) {
        candidates.push_back({&p, &o, 0, Bound(p, o), false});
      }
    }
  }
  return NearestOf(candidates, -kInfinity, 0.0, [](const Candidate&, const PairOutcome&) {});
}

}  // namespace motion
