#pragma once

#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/collision/collision_checker.h"
#include "core/collision/internal/placed_shapes.h"
#include "core/collision/trajectory_collisions.h"

namespace motion {

/// \brief One pair in contact at a probed joint vector.
struct ProbeContact {
  std::string link, other;
  double depth = 0.0;
};

/// \brief What the robot looks like at one joint vector: clearance to
/// everything (a lower bound, exact below the probe's threshold), the
/// contacts, and what the motion bound needs (joint origins, shape centres
/// and radii). Refilled in place by Prober::At, so a kept probe's storage
/// is reused.
struct Probe {
  double clearance = std::numeric_limits<double>::infinity();
  /// The same lower bounds per link of the collision model (to the scene)
  /// and per self pair (RobotCollisionModel::self_pairs order); +inf for
  /// what is not checked. `clearance` is their minimum.
  std::vector<double> link_clearance, pair_clearance;
  std::vector<ProbeContact> contacts;
  std::vector<Eigen::Vector3d> joint_origins;
  /// Every shape's (centre, bounding radius), link after link of the
  /// collision model (Prober::shapes_of gives a link's range).
  std::vector<std::pair<Eigen::Vector3d, double>> shapes;
};

/// \brief Probes joint vectors of one chain against one scene, and bounds
/// the motion between two probed vectors (conservative advancement).
class Prober {
 public:
  Prober(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
         const CollisionScene& scene, const TrajectoryCollisionOptions& options);

  /// The probe at `q`, into `probe`; pairs whose bounding boxes are
  /// farther apart than `threshold` (m) only contribute their box gap to
  /// the clearance.
  void At(const Eigen::VectorXd& q, double threshold, Probe& probe);
  Probe At(const Eigen::VectorXd& q, double threshold) {
    Probe probe;
    At(q, threshold, probe);
    return probe;
  }

  /// Bound on how far any point of any link moves from qa to qb (m), twice
  /// that with self-collision (both links of a pair move); finite for any
  /// turn.
  double MotionBound(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, const Probe& a,
                     const Probe& b) const;

  /// Whether probes a and b of the motion MotionBound last bounded clear
  /// it pair by pair: every link's clearance to the scene at both ends
  /// beyond its own bound, every self pair's beyond how far the joints
  /// between its links move the farther one. Implies nothing moves into contact, as the global
  /// test does, and holds for many motions that one fails.
  bool Clears(const Probe& a, const Probe& b) const;

  /// For the motion MotionBound last bounded: how far any point of one of
  /// two links (indices into RobotCollisionModel::links) moves in the frame
  /// of the other, the one nearer the base (only the joints between them
  /// move it there), so how much their distance can shrink.
  double PairBound(int link_a, int link_b) const;

  double resolution() const { return resolution_; }

  /// Per link of the collision model, the last MotionBound's bound on how
  /// far its points move (one mover, never doubled for self pairs).
  const std::vector<double>& link_bounds() const { return link_bound_; }

  /// WalkMotion's middle joint vectors and probes, one per halving depth
  /// (a depth-first walk needs each only until both its halves are done);
  /// never resized, since walks hold references into it.
  struct Middle {
    Eigen::VectorXd q;
    Probe probe;
  };
  std::vector<Middle>& middles() { return middles_; }

 private:
  const ChainModel& chain_;
  ChainData& data_;
  const RobotCollisionModel& robot_;
  const CollisionScene& scene_;
  bool self_;
  double margin_;
  double resolution_;
  const AllowedCollisions* allowed_;
  CollisionEngine engine_;
  PlacedRobot placed_;
  FclPlacements fcl_;
  std::vector<int> first_shape_;  ///< per link, its first in Probe::shapes; one past the end
  std::vector<Middle> middles_;
  mutable std::vector<double> dtheta_;      ///< MotionBound's per-joint turns
  std::vector<double> link_length_;         ///< |o_{j+1} - o_j| when joint j turns
  mutable std::vector<double> link_bound_;  ///< per link, the last MotionBound's (one mover)
  /// Per link, per joint j (joints + 1 columns): the part of its last bound
  /// the joints from j on make.
  mutable std::vector<double> suffix_bound_;
  std::vector<int> link_joint_;  ///< per link, the joint it moves with (-1: base)
};

/// The threshold below which exact distances are computed at the ends of
/// an interval: a generous guess of one interval's motion (halving probes
/// use the interval's own bound).
inline constexpr double kProbeThreshold = 0.05;

/// \brief The motion from qa (probe a, time ta) to qb (probe b, time tb),
/// joints interpolated linearly, halved where its ends do not clear it
/// (c_a + c_b <= MotionBound) down to the prober's resolution. Each middle
/// probe is passed to `on_middle` with its time; when that returns false
/// the walk stops. Returns false when it was stopped, true when it was
/// walked to the end. The ends' own contacts are the caller's.
///
/// `depth`: halvings already made to get qa..qb out of a longer motion
/// (the limit on halvings counts from that motion).
bool WalkMotion(Prober& prober, const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, double ta,
                double tb, const Probe& a, const Probe& b,
                const std::function<bool(const Probe& middle, double time)>& on_middle,
                int depth = 0);

/// \brief Whether WalkMotion probes the middle of qa..qb (probes a, b,
/// `bound` their MotionBound, `depth` halvings made): its ends do not clear
/// it and it is not yet below the resolution or the halving limit.
bool NeedsMiddle(const Prober& prober, const Probe& a, const Probe& b, double bound, int depth);

}  // namespace motion
