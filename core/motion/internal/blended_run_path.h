#pragma once

#include <vector>

#include "core/geometry/pose.h"
#include "core/motion/internal/curve_timing.h"
#include "core/motion/internal/natural_spline.h"
#include "core/motion/internal/segment_paths.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief The TCP path of a run of MoveL/MoveC motions whose corners are
/// blended, as one path in sigma in [0, 1]: what the run's one joint curve
/// follows and its one timing times (blended_run.h).
///
/// Sigma is the run's time at cruise speed, normalised: motion k moves
/// through its own sigma x_k at 1 / tau_k per second, tau_k = max(L_k / v,
/// theta_k / w) (its length and rotation at the run's linear and angular
/// speeds), so that a timing uniform in sigma runs every motion at its
/// programmed cruise speed.
///
/// Corner k (between motions k and k + 1) is blended over 2 h_k of that
/// time. In the blend, u in [0, 1], the two motions' displacements add, as
/// two motions overlapping in time would:
///   p = P_k(x_k(u)) + P_{k+1}(x_{k+1}(u)) - p_corner,
///   R = R_k(x_k(u)) R_corner^-1 R_{k+1}(x_{k+1}(u)),
/// motion k's rate falling as (1 - a(u)) k(u) and motion k + 1's growing as
/// a(u) k(u), a(u) = 10u^3 - 15u^4 + 6u^5 (its first two derivatives vanish
/// at both ends). k(u) keeps the TCP's speed what the two motions' speeds
/// interpolated give, ((1 - a) |V_k| + a |V_{k+1}|) / |(1 - a) V_k + a
/// V_{k+1}| with V the motions' velocities at the corner (exact for lines;
/// without it the TCP would slow by cos(angle / 2) in the middle and its
/// jerk along the path would force the timing down), as a spline over a
/// corrected a few times against the motions' velocities along the blend
/// (arcs turn on the way). Every corner must be BlendsOnPath. The
/// path's derivatives in sigma match both motions' at both ends of the
/// blend to the third, so the joint curve through it is as smooth as along
/// a line; the TCP's direction turns monotonically from one motion's to
/// the other's, inside the sphere around the corner of the larger of the
/// distances at which it leaves and joins.
class BlendedRunPath {
 public:
  /// `motions` in order, each starting where the one before ends; `zones`
  /// of the corners (motion k's): DISTANCE r leaves and joins within r of
  /// the corner, CNT p takes p % of what CONTINUOUS takes, which is half of
  /// the shorter motion; no blend takes more than half of either motion.
  BlendedRunPath(std::vector<SegmentPath> motions, const SpeedSpec& speed,
                 const std::vector<ZoneSpec>& zones);

  Pose At(double sigma) const;
  /// \brief The first three derivatives in sigma of the TCP's distance and
  /// rotation along the path (TcpRates), for the timing's TCP limits.
  TcpRates Rates(double sigma) const;
  /// \brief length = v T / kRunTcpVelocityMargin (the reference timing
  /// uniform in sigma runs at cruise, a little inside), rotation = the
  /// motions' sum, and Rates. Valid while this is.
  CartesianExtent Extent() const;

  std::size_t motions() const { return motions_.size(); }
  const SegmentPath& motion(std::size_t k) const { return motions_[k]; }
  /// \brief Where corner k's blend starts, its middle and where it ends.
  double BlendStart(std::size_t k) const { return blends_[k].start / total_; }
  double BlendMiddle(std::size_t k) const { return (blends_[k].start + blends_[k].half) / total_; }
  double BlendEnd(std::size_t k) const { return (blends_[k].start + 2 * blends_[k].half) / total_; }
  /// \brief The distances from corner k at which the TCP leaves motion k
  /// and joins motion k + 1.
  double LeaveDistance(std::size_t k) const;
  double JoinDistance(std::size_t k) const;
  /// \brief True when corner k's DISTANCE zone asked for more than half of
  /// a motion.
  bool Reduced(std::size_t k) const { return blends_[k].reduced; }

 private:
  struct Point {
    Eigen::Vector3d p, d1, d2, d3;  ///< position and its derivatives in s
  };
  struct Blend {
    double start = 0.0, half = 0.0;    ///< s
    double f0 = 0.0, f1 = 0.0;         ///< h / tau of each motion
    double leave = 0.0, join = 0.0;    ///< x_k where it leaves, x_{k+1} where it joins
    double a = 0.0, b = 0.0, c = 0.0;  ///< |V_k|, |V_{k+1}|, V_k . V_{k+1}
    NaturalSpline keep;                ///< the speed-keeping factor over a
    /// Each motion's rate integrated from u = 0 to u = i / kKeepNodes.
    std::vector<double> integral0, integral1;
    bool reduced = false;
  };
  // Where s falls: motion k's own stretch, or corner k's blend at u.
  struct Place {
    std::size_t k = 0;
    bool blend = false;
    double x = 0.0;  ///< own stretch: motion k's sigma
    double u = 0.0;  ///< blend
  };
  // The rate factor of motion k (`second` false) or k + 1 across a blend,
  // and its first two derivatives in u.
  void Rate(const Blend& b, double u, bool second, double out[3]) const;
  double Integral(const Blend& b, double u, bool second) const;
  // The rate integrated over [from, to] inside one interval of the spline.
  double Piece(const Blend& b, double from, double to, bool second) const;
  // Sets b.keep and tabulates its integrals.
  void SetKeep(Blend& b, std::vector<double> w, std::vector<double> factor) const;
  Point MotionPoint(std::size_t k, double x) const;
  // Sizes corner k's blend (half, f0, f1, leave, join) for its zone.
  void SizeBlend(std::size_t k, const ZoneSpec& zone, Blend& b) const;
  // Corrects the speed-keeping factor so that the TCP's speed across the
  // blend is what the two motions' speeds interpolated give.
  void CorrectKeepFactor(std::size_t k, Blend& b) const;
  Place Locate(double s) const;
  Point PositionAtTime(double s) const;
  Eigen::Quaterniond OrientationAtTime(double s) const;

  std::vector<SegmentPath> motions_;
  std::vector<double> tau_, own_start_, own_from_;
  std::vector<Blend> blends_;
  double total_ = 0.0;
  double linear_speed_ = 0.0;
  bool rotates_ = false;   ///< some motion turns the tool
  double shortest_ = 0.0;  ///< s, the shortest stretch that changes (a blend's half, a motion)
};

/// \brief A motion's cruise time at `speed` (tau_k above).
double CruiseTime(const CartesianExtent& extent, const SpeedSpec& speed);

/// \brief True when the corner from `before` into `after` can be blended on
/// the path at the TCP's speed: both move the TCP (tau > 0, a length > 0)
/// and the corner turns it by at most about 120 degrees (the speed-keeping
/// factor at most 2). A sharper corner turns about a point where the TCP
/// must all but stop: a blend on the path would crawl around it, and the
/// two motions are better overlapped in time (zone_blending.h).
bool BlendsOnPath(const SegmentPath& before, const SegmentPath& after, const SpeedSpec& speed);

}  // namespace motion
