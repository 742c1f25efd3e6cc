#include "core/collision/internal/motion_probe.h"

#include <algorithm>
#include <cmath>

#include "core/collision/internal/fcl_scene.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kMaxDepth = 24;  // halvings of one interval

}  // namespace

Prober::Prober(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
               const CollisionScene& scene, const TrajectoryCollisionOptions& options)
    : chain_(chain),
      data_(data),
      robot_(robot),
      scene_(scene),
      self_(options.self_collision),
      margin_(options.safety_margin),
      resolution_(options.resolution),
      allowed_(options.allowed),
      engine_(options.engine),
      dtheta_(chain.joints.size()),
      link_length_(chain.joints.size(), 0.0),
      link_bound_(robot.links().size(), 0.0),
      suffix_bound_(robot.links().size() * (chain.joints.size() + 1), 0.0) {
  for (const LinkCollisionGeometry& l : robot.links()) {
    link_joint_.push_back(chain.links[l.chain_link].after_joint);
  }
  // Sized once: walks hold references into it.
  middles_.resize(kMaxDepth);
  first_shape_.push_back(0);
  for (const LinkCollisionGeometry& l : robot.links()) {
    first_shape_.push_back(first_shape_.back() + static_cast<int>(l.shapes.size()));
  }
  // |o_{j+1} - o_j| is the next joint's offset when joint j turns.
  for (std::size_t j = 0; j + 1 < chain.joints.size(); ++j) {
    link_length_[j] = chain.joints[j + 1].origin.translation().norm();
  }
}

void Prober::At(const Eigen::VectorXd& q, double threshold, Probe& p) {
  p.clearance = kInfinity;
  p.contacts.clear();
  p.joint_origins.clear();
  p.shapes.clear();
  ForwardKinematics(chain_, data_, q);
  for (std::size_t j = 0; j < chain_.joints.size(); ++j) {
    p.joint_origins.push_back(data_.joint_frames[j].translation());
  }
  const std::vector<LinkCollisionGeometry>& links = robot_.links();
  // The placement and its FCL objects are this prober's, reused probe
  // after probe.
  fcl_.Clear();
  placed_.Place(chain_, data_, robot_);
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (int s = 0; s < placed_.shape_count(static_cast<int>(i)); ++s) {
      const Primitive& shape = placed_.shape(static_cast<int>(i), s);
      p.shapes.emplace_back(shape.centre, shape.bounding_radius);
    }
  }
  // Clearances are distances less the margin: a pair within the margin
  // is a contact, and the motion between samples must not bring it there.
  // `item`: the link's clearance to the scene, or the self pair's.
  auto pair = [&](const Primitive& a, const Primitive& b, const std::string& la,
                  const std::string& lb, double& item) {
    // Squared first: a pair beyond the threshold that cannot lower the
    // clearance needs no root.
    const double gap_squared = BoxGapSquared(a, b);
    const double beyond = std::max(threshold, 0.0) + margin_;
    if (gap_squared > beyond * beyond) {
      const double reach = item + margin_;
      if (reach > 0 && gap_squared >= reach * reach) return;
      item = std::min(item, std::sqrt(gap_squared) - margin_);
      return;
    }
    const PairOutcome o = TestShapes(engine_, a, b, true, margin_, fcl_);
    item = std::min(item, o.distance - margin_);
    if (o.in_contact) p.contacts.push_back({la, lb, o.depth});
  };
  p.link_clearance.assign(links.size(), kInfinity);
  p.pair_clearance.assign(robot_.self_pairs().size(), kInfinity);
  const std::vector<Primitive>& obstacles = scene_.engine().primitives;
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (int s = 0; s < placed_.shape_count(static_cast<int>(i)); ++s) {
      for (std::size_t o = 0; o < obstacles.size(); ++o) {
        if (allowed_ && allowed_->LinkObject(static_cast<int>(i), static_cast<int>(o))) continue;
        pair(placed_.shape(static_cast<int>(i), s), obstacles[o], links[i].link,
             scene_.objects()[o].id, p.link_clearance[i]);
      }
    }
  }
  if (self_) {
    for (std::size_t k = 0; k < robot_.self_pairs().size(); ++k) {
      const auto& [a, b] = robot_.self_pairs()[k];
      if (allowed_ && allowed_->LinkPair(a, b)) continue;
      for (int sa = 0; sa < placed_.shape_count(a); ++sa) {
        for (int sb = 0; sb < placed_.shape_count(b); ++sb) {
          pair(placed_.shape(a, sa), placed_.shape(b, sb), links[a].link, links[b].link,
               p.pair_clearance[k]);
        }
      }
    }
  }
  for (double c : p.link_clearance) p.clearance = std::min(p.clearance, c);
  for (double c : p.pair_clearance) p.clearance = std::min(p.clearance, c);
}

double Prober::PairBound(int link_a, int link_b) const {
  if (link_joint_[link_a] > link_joint_[link_b]) std::swap(link_a, link_b);
  const std::size_t columns = chain_.joints.size() + 1;
  return suffix_bound_[link_b * columns + (link_joint_[link_a] + 1)];
}

bool Prober::Clears(const Probe& a, const Probe& b) const {
  // A link's points move at most link_bound_ (scene objects do not move).
  // Two links' distance is the same in the frame of the one nearer the
  // base, where only the joints between them move the other: their part
  // of its bound.
  for (std::size_t i = 0; i < link_bound_.size(); ++i) {
    if (!(a.link_clearance[i] + b.link_clearance[i] > link_bound_[i])) return false;
  }
  if (!self_) return true;
  const std::vector<std::pair<int, int>>& pairs = robot_.self_pairs();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double moved = PairBound(pairs[k].first, pairs[k].second);
    if (!(a.pair_clearance[k] + b.pair_clearance[k] > moved)) return false;
  }
  return true;
}

double Prober::MotionBound(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, const Probe& a,
                           const Probe& b) const {
  // Linear joint motion: a point p of a link moves at most
  //   M = sum_j |dtheta_j| max_t |p(t) - o_j(t)|  (+ |dd_j| for prismatic j)
  // (o_j: joint j's origin, on its axis). max_t |p - o_j| is bounded two
  // ways, whatever the turn: by its value at either end plus how far p
  // moves in joint j's frame, which only the joints after j do (the same
  // sum over them), and by the link lengths from j to the link plus the
  // shapes' reach from the link's joint, which revolute joints keep fixed.
  const std::size_t n = chain_.joints.size();
  for (std::size_t j = 0; j < n; ++j) {
    const ChainJoint& joint = chain_.joints[j];
    dtheta_[j] = std::abs(joint.multiplier * (qb[joint.dof] - qa[joint.dof]));
  }
  double bound = 0.0;
  const std::vector<LinkCollisionGeometry>& links = robot_.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const int last_joint = chain_.links[links[i].chain_link].after_joint;
    const int first = first_shape_[i], end = first_shape_[i + 1];
    link_bound_[i] = 0.0;
    double* suffix = &suffix_bound_[i * (n + 1)];
    std::fill(suffix, suffix + n + 1, 0.0);
    if (last_joint < 0 || first == end) continue;
    // Reach of the link's shapes from o_j at the ends: the nearer one
    // (either is a valid start for the growth) and the farther one (the
    // link's own joint, where the two agree but for rounding).
    auto reach = [&](int j, bool farther) {
      double r[2] = {0.0, 0.0};
      int e = 0;
      for (const Probe* p : {&a, &b}) {
        for (int s = first; s < end; ++s) {
          const auto& [centre, radius] = p->shapes[s];
          r[e] = std::max(r[e], (centre - p->joint_origins[j]).norm() + radius);
        }
        ++e;
      }
      return farther ? std::max(r[0], r[1]) : std::min(r[0], r[1]);
    };
    double fixed = reach(last_joint, true);  // bounds |p - o_j| at every t
    double moved = 0.0;                      // sum over the joints after j
    for (int j = last_joint; j >= 0; --j) {
      if (j < last_joint) {
        fixed =
            chain_.joints[j].type == JointType::kPrismatic ? kInfinity : fixed + link_length_[j];
      }
      const double m = std::min(fixed, reach(j, false) + moved);
      moved += chain_.joints[j].type == JointType::kPrismatic ? dtheta_[j] : dtheta_[j] * m;
      suffix[j] = moved;
    }
    link_bound_[i] = moved;
    bound = std::max(bound, moved);
  }
  return self_ ? 2.0 * bound : bound;
}

namespace {

// The walk below `depth` (the motion's halvings so far), depth first, left
// half before right: the order on_middle sees the middles in.
bool Walk(Prober& prober, const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, double ta,
          double tb, const Probe& a, const Probe& b, int depth,
          const std::function<bool(const Probe& middle, double time)>& on_middle) {
  const double bound = prober.MotionBound(qa, qb, a, b);
  if (!NeedsMiddle(prober, a, b, bound, depth)) return true;
  Prober::Middle& m = prober.middles()[depth];
  m.q = 0.5 * (qa + qb);
  const double tm = 0.5 * (ta + tb);
  // Exact where this interval's bound needs it (bounds stay valid
  // either way: the threshold only decides how much is computed).
  prober.At(m.q, std::max(kProbeThreshold, bound), m.probe);
  if (!on_middle(m.probe, tm)) return false;
  if (!Walk(prober, qa, m.q, ta, tm, a, m.probe, depth + 1, on_middle)) return false;
  return Walk(prober, m.q, qb, tm, tb, m.probe, b, depth + 1, on_middle);
}

}  // namespace

bool NeedsMiddle(const Prober& prober, const Probe& a, const Probe& b, double bound, int depth) {
  if (a.clearance + b.clearance > bound || prober.Clears(a, b)) return false;
  if (bound < prober.resolution() || depth >= kMaxDepth) return false;
  // Both ends in contact: the contact is already recorded at the ends.
  return a.contacts.empty() || b.contacts.empty() || bound >= 1e-2;
}

bool WalkMotion(Prober& prober, const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, double ta,
                double tb, const Probe& a, const Probe& b,
                const std::function<bool(const Probe& middle, double time)>& on_middle, int depth) {
  return Walk(prober, qa, qb, ta, tb, a, b, depth, on_middle);
}

}  // namespace motion
