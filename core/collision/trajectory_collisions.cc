#include "core/collision/trajectory_collisions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "core/collision/internal/fcl_scene.h"
#include "core/collision/internal/placed_shapes.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kMaxDepth = 24;  // halvings of one sample interval

struct Found {
  std::string link, other;
  double depth = 0.0;
};

// What the robot looks like at one joint vector: clearance to everything
// (a lower bound, exact below `threshold`), the contacts, and what the
// motion bound needs (joint origins and axes, shape centres and radii).
struct Probe {
  double clearance = kInfinity;
  std::vector<Found> contacts;
  std::vector<Eigen::Vector3d> joint_origins;
  std::vector<bool> prismatic;
  /// Per link of the collision model: its shapes' (centre, bounding radius).
  std::vector<std::vector<std::pair<Eigen::Vector3d, double>>> shapes;
};

class Prober {
 public:
  Prober(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
         const CollisionScene& scene, const TrajectoryCollisionOptions& options)
      : chain_(chain),
        data_(data),
        robot_(robot),
        scene_(scene),
        self_(options.self_collision),
        margin_(options.safety_margin),
        allowed_(options.allowed),
        engine_(options.engine) {}

  Probe At(const Eigen::VectorXd& q, double threshold) {
    Probe p;
    ForwardKinematics(chain_, data_, q);
    for (std::size_t j = 0; j < chain_.joints.size(); ++j) {
      p.joint_origins.push_back(data_.joint_frames[j].translation());
      p.prismatic.push_back(chain_.joints[j].type == JointType::kPrismatic);
    }
    const std::vector<LinkCollisionGeometry>& links = robot_.links();
    // The placement and its FCL objects are this prober's, reused probe
    // after probe.
    fcl_.Clear();
    placed_.Place(chain_, data_, robot_);
    p.shapes.resize(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      for (int s = 0; s < placed_.shape_count(static_cast<int>(i)); ++s) {
        const Primitive& shape = placed_.shape(static_cast<int>(i), s);
        p.shapes[i].emplace_back(shape.centre, shape.bounding_radius);
      }
    }
    // Clearances are distances less the margin: a pair within the margin
    // is a contact, and the motion between samples must not bring it there.
    auto pair = [&](const Primitive& a, const Primitive& b, const std::string& la,
                    const std::string& lb) {
      // Squared first: a pair beyond the threshold that cannot lower the
      // clearance needs no root.
      const double gap_squared = BoxGapSquared(a, b);
      const double beyond = std::max(threshold, 0.0) + margin_;
      if (gap_squared > beyond * beyond) {
        const double reach = p.clearance + margin_;
        if (reach > 0 && gap_squared >= reach * reach) return;
        p.clearance = std::min(p.clearance, std::sqrt(gap_squared) - margin_);
        return;
      }
      const PairOutcome o = TestShapes(engine_, a, b, true, margin_, fcl_);
      p.clearance = std::min(p.clearance, o.distance - margin_);
      if (o.in_contact) p.contacts.push_back({la, lb, o.depth});
    };
    const std::vector<Primitive>& obstacles = scene_.engine().primitives;
    for (std::size_t i = 0; i < links.size(); ++i) {
      for (int s = 0; s < placed_.shape_count(static_cast<int>(i)); ++s) {
        for (std::size_t o = 0; o < obstacles.size(); ++o) {
          if (allowed_ && allowed_->LinkObject(static_cast<int>(i), static_cast<int>(o))) continue;
          pair(placed_.shape(static_cast<int>(i), s), obstacles[o], links[i].link,
               scene_.objects()[o].id);
        }
      }
    }
    if (self_) {
      for (const auto& [a, b] : robot_.self_pairs()) {
        if (allowed_ && allowed_->LinkPair(a, b)) continue;
        for (int sa = 0; sa < placed_.shape_count(a); ++sa) {
          for (int sb = 0; sb < placed_.shape_count(b); ++sb) {
            pair(placed_.shape(a, sa), placed_.shape(b, sb), links[a].link, links[b].link);
          }
        }
      }
    }
    return p;
  }

  // Bound on how far any point of any link moves from qa to qb.
  double MotionBound(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, const Probe& a,
                     const Probe& b) const {
    std::vector<double> dtheta(chain_.joints.size());
    double turned = 0.0;
    for (std::size_t j = 0; j < chain_.joints.size(); ++j) {
      const ChainJoint& joint = chain_.joints[j];
      dtheta[j] = std::abs(joint.multiplier * (qb[joint.dof] - qa[joint.dof]));
      if (!a.prismatic[j]) turned += dtheta[j];
    }
    // Radii grow by at most the motion itself: M <= turned (R + M).
    if (turned >= 0.5) return kInfinity;
    double bound = 0.0;
    const std::vector<LinkCollisionGeometry>& links = robot_.links();
    for (std::size_t i = 0; i < links.size(); ++i) {
      const int last_joint = chain_.links[links[i].chain_link].after_joint;
      double m = 0.0;
      for (int j = 0; j <= last_joint; ++j) {
        if (a.prismatic[j]) {
          m += dtheta[j];
          continue;
        }
        double reach = 0.0;
        for (const Probe* p : {&a, &b}) {
          for (const auto& [centre, radius] : p->shapes[i]) {
            reach = std::max(reach, (centre - p->joint_origins[j]).norm() + radius);
          }
        }
        m += dtheta[j] * reach;
      }
      bound = std::max(bound, m / (1.0 - turned));
    }
    return self_ ? 2.0 * bound : bound;
  }

 private:
  const ChainModel& chain_;
  ChainData& data_;
  const RobotCollisionModel& robot_;
  const CollisionScene& scene_;
  bool self_;
  double margin_;
  const AllowedCollisions* allowed_;
  CollisionEngine engine_;
  PlacedRobot placed_;
  FclPlacements fcl_;
};

// Contacts per pair, merged over contiguous samples.
class Merger {
 public:
  void Add(const Found& f, std::size_t sample, double time, bool at_sample) {
    auto key = std::make_pair(f.link, f.other);
    auto it = open_.find(key);
    if (it != open_.end()) {
      TrajectoryContact& c = contacts_[it->second];
      if (sample <= c.last_sample + 1) {
        c.last_sample = std::max(c.last_sample, sample);
        c.end_time = std::max(c.end_time, time);
        c.start_time = std::min(c.start_time, time);
        c.max_depth = std::max(c.max_depth, f.depth);
        c.between_samples_only = c.between_samples_only && !at_sample;
        return;
      }
    }
    TrajectoryContact c;
    c.link = f.link;
    c.other = f.other;
    c.first_sample = c.last_sample = sample;
    c.start_time = c.end_time = time;
    c.max_depth = f.depth;
    c.between_samples_only = !at_sample;
    open_[key] = contacts_.size();
    contacts_.push_back(std::move(c));
  }
  std::vector<TrajectoryContact> Take() { return std::move(contacts_); }

 private:
  std::map<std::pair<std::string, std::string>, std::size_t> open_;
  std::vector<TrajectoryContact> contacts_;
};

}  // namespace

std::vector<TrajectoryContact> FindTrajectoryCollisions(const ChainModel& chain, ChainData& data,
                                                        const RobotCollisionModel& robot,
                                                        const CollisionScene& scene,
                                                        const std::vector<double>& times,
                                                        const std::vector<double>& positions,
                                                        const TrajectoryCollisionOptions& options,
                                                        const std::function<bool()>& cancelled) {
  Merger merger;
  const int dof = chain.dof();
  const std::size_t n = times.size();
  auto position = [&](std::size_t k) {
    return Eigen::Map<const Eigen::VectorXd>(positions.data() + k * dof, dof);
  };
  if (n == 0 || !robot.has_geometry()) return {};
  Prober prober(chain, data, robot, scene, options);
  // The threshold below which exact distances are computed at the samples:
  // a generous guess of one interval's motion (halving probes use the
  // interval's own bound).
  const double threshold = 0.05;
  Eigen::VectorXd qa = position(0);
  Probe a = prober.At(qa, threshold);
  for (const Found& f : a.contacts) merger.Add(f, 0, times[0], true);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (k % 64 == 0 && cancelled && cancelled()) break;
    const Eigen::VectorXd qb = position(k + 1);
    Probe b = prober.At(qb, threshold);
    for (const Found& f : b.contacts) merger.Add(f, k + 1, times[k + 1], true);
    // The interval (k, k + 1), halved where its ends do not clear it.
    struct Piece {
      Eigen::VectorXd qa, qb;
      double ta, tb;
      Probe pa, pb;
      int depth;
    };
    // Most intervals are cleared by their ends alone: no copies for them.
    if (a.clearance + b.clearance > prober.MotionBound(qa, qb, a, b)) {
      qa = qb;
      a = std::move(b);
      continue;
    }
    std::vector<Piece> stack;
    stack.push_back({qa, qb, times[k], times[k + 1], a, b, 0});
    while (!stack.empty()) {
      Piece piece = std::move(stack.back());
      stack.pop_back();
      const double bound = prober.MotionBound(piece.qa, piece.qb, piece.pa, piece.pb);
      if (piece.pa.clearance + piece.pb.clearance > bound) continue;
      if (bound < options.resolution || piece.depth >= kMaxDepth) continue;
      // Both ends in contact: the contact is already recorded at the ends.
      if (!piece.pa.contacts.empty() && !piece.pb.contacts.empty() && bound < 1e-2) continue;
      const Eigen::VectorXd qm = 0.5 * (piece.qa + piece.qb);
      const double tm = 0.5 * (piece.ta + piece.tb);
      // Exact where this interval's bound needs it (bounds stay valid
      // either way: the threshold only decides how much is computed).
      Probe m = prober.At(qm, std::max(threshold, bound));
      for (const Found& f : m.contacts) merger.Add(f, k, tm, false);
      stack.push_back({qm, piece.qb, tm, piece.tb, m, piece.pb, piece.depth + 1});
      stack.push_back({piece.qa, qm, piece.ta, tm, piece.pa, std::move(m), piece.depth + 1});
    }
    qa = qb;
    a = std::move(b);
  }
  return merger.Take();
}

}  // namespace motion
