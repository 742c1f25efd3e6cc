#include "core/motion/internal/blended_run_path.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace motion {
namespace {

// Step in a motion's own sigma of the differences that give its path's
// derivatives: lines are exact, arcs and slerps within ~1e-6 relative.
constexpr double kMotionStep = 1e-3;
// Step of the differences of the rotation, as a share of the shortest
// stretch that changes nearby (a blend's half, a motion).
constexpr double kRotationStepShare = 0.02;
// The speed-keeping factor is used up to this value (a 120 degree corner
// between equal speeds); sharper corners are not blended on the path.
constexpr double kMaxSpeedKeeping = 2.0;
// A motion turning the tool by less than this (rad) does not turn it: its
// targets' orientations differ by rounding.
constexpr double kNoRotation = 1e-9;
// The speed-keeping factor is a spline over this many intervals of a,
// corrected this many times against the motions' own velocities.
constexpr int kKeepNodes = 48;
constexpr int kKeepCorrections = 3;

// a(u) = 10u^3 - 15u^4 + 6u^5 and its first two derivatives.
struct Weight {
  double a, d1, d2;
};
Weight WeightAt(double u) {
  const double u2 = u * u;
  return Weight{u2 * u * (10 - 15 * u + 6 * u2), 30 * u2 * (1 - 2 * u + u2),
                60 * u * (1 - 3 * u + 2 * u2)};
}

// 4-point Gauss-Legendre nodes and weights on [-1, 1] (half of them): the
// rate is a smooth function of u inside each of the spline's intervals of
// 1 / kKeepNodes, which it integrates to rounding.
constexpr double kGaussX[2] = {0.3399810435848563, 0.8611363115940526};
constexpr double kGaussW[2] = {0.6521451548625461, 0.3478548451374538};

// The speed-keeping factor's first guess k(a) (the header's, exact for
// two lines) for speeds |V_k| = a, |V_{k+1}| = b and V_k . V_{k+1} = c.
double KeepFactor(double a, double b, double c, double w) {
  const double n = (1 - w) * a + w * b;
  const double q = (1 - w) * (1 - w) * a * a + w * w * b * b + 2 * w * (1 - w) * c;
  return n / std::sqrt(std::max(q, 1e-300));
}

// A motion's TCP velocity per second of cruise at its own sigma x.
Eigen::Vector3d CruiseVelocity(const SegmentPath& m, double tau, double x) {
  return (m.path(x + kMotionStep).position - m.path(x - kMotionStep).position) /
         (2 * kMotionStep * tau);
}

}  // namespace

double CruiseTime(const CartesianExtent& extent, const SpeedSpec& speed) {
  double tau = 0.0;
  if (extent.length > 0 && speed.linear_velocity > 0) tau = extent.length / speed.linear_velocity;
  if (extent.rotation > 0 && speed.angular_velocity > 0) {
    tau = std::max(tau, extent.rotation / speed.angular_velocity);
  }
  return tau;
}

bool BlendsOnPath(const SegmentPath& before, const SegmentPath& after, const SpeedSpec& speed) {
  const double tau0 = CruiseTime(before.extent, speed), tau1 = CruiseTime(after.extent, speed);
  if (!(tau0 > 0 && tau1 > 0 && before.extent.length > 0 && after.extent.length > 0)) return false;
  const Eigen::Vector3d v0 = CruiseVelocity(before, tau0, 1.0),
                        v1 = CruiseVelocity(after, tau1, 0.0);
  const double a = v0.norm(), b = v1.norm(), c = v0.dot(v1);
  if (!(a > 0 && b > 0)) return false;
  for (int i = 0; i <= kKeepNodes; ++i) {
    if (!(KeepFactor(a, b, c, static_cast<double>(i) / kKeepNodes) <= kMaxSpeedKeeping))
      return false;
  }
  return true;
}

void BlendedRunPath::Rate(const Blend& b, double u, bool second, double out[3]) const {
  const Weight w = WeightAt(u);
  double ka[3];
  b.keep.Evaluate(w.a, ka);
  const double k[3] = {ka[0], ka[1] * w.d1, ka[2] * w.d1 * w.d1 + ka[1] * w.d2};
  const double s = second ? 1.0 : -1.0;  // d/du of the weight: +a' or -(a')
  const double weight = second ? w.a : 1 - w.a;
  out[0] = weight * k[0];
  out[1] = s * w.d1 * k[0] + weight * k[1];
  out[2] = s * w.d2 * k[0] + 2 * s * w.d1 * k[1] + weight * k[2];
}

double BlendedRunPath::Piece(const Blend& b, double from, double to, bool second) const {
  double sum = 0.0, r[3];
  const double middle = 0.5 * (from + to), half = 0.5 * (to - from);
  for (int i = 0; i < 2; ++i) {
    for (double sign : {-1.0, 1.0}) {
      Rate(b, middle + sign * half * kGaussX[i], second, r);
      sum += kGaussW[i] * r[0];
    }
  }
  return half * sum;
}

double BlendedRunPath::Integral(const Blend& b, double u, bool second) const {
  // The table to the interval's start, Gauss-Legendre inside it.
  const std::vector<double>& table = second ? b.integral1 : b.integral0;
  const int i = std::clamp(static_cast<int>(u * kKeepNodes), 0, kKeepNodes - 1);
  const double from = static_cast<double>(i) / kKeepNodes;
  return table[i] + Piece(b, from, u, second);
}

void BlendedRunPath::SetKeep(Blend& b, std::vector<double> w, std::vector<double> factor) const {
  b.keep = NaturalSpline(std::move(w), std::move(factor));
  b.integral0.assign(kKeepNodes + 1, 0.0);
  b.integral1.assign(kKeepNodes + 1, 0.0);
  for (int i = 0; i < kKeepNodes; ++i) {
    const double from = static_cast<double>(i) / kKeepNodes, to = (i + 1.0) / kKeepNodes;
    b.integral0[i + 1] = b.integral0[i] + Piece(b, from, to, false);
    b.integral1[i + 1] = b.integral1[i] + Piece(b, from, to, true);
  }
}

BlendedRunPath::BlendedRunPath(std::vector<SegmentPath> motions, const SpeedSpec& speed,
                               const std::vector<ZoneSpec>& zones)
    : motions_(std::move(motions)), linear_speed_(speed.linear_velocity) {
  const std::size_t n = motions_.size();
  for (const SegmentPath& m : motions_) {
    tau_.push_back(CruiseTime(m.extent, speed));
    rotates_ = rotates_ || m.extent.rotation > kNoRotation;
  }
  shortest_ = *std::min_element(tau_.begin(), tau_.end());
  for (std::size_t k = 0; k + 1 < n; ++k) {
    Blend b;
    const Eigen::Vector3d v0 = CruiseVelocity(motions_[k], tau_[k], 1.0);
    const Eigen::Vector3d v1 = CruiseVelocity(motions_[k + 1], tau_[k + 1], 0.0);
    b.a = v0.norm();
    b.b = v1.norm();
    b.c = v0.dot(v1);
    std::vector<double> w, factor;
    for (int i = 0; i <= kKeepNodes; ++i) {
      w.push_back(WeightAt(static_cast<double>(i) / kKeepNodes).a);
      factor.push_back(KeepFactor(b.a, b.b, b.c, w.back()));
    }
    SetKeep(b, w, factor);
    SizeBlend(k, zones[k], b);
    for (int pass = 0; pass < kKeepCorrections; ++pass) {
      CorrectKeepFactor(k, b);
      SizeBlend(k, zones[k], b);
    }
    shortest_ = std::min(shortest_, b.half);
    blends_.push_back(b);
  }
  for (std::size_t k = 0; k < n; ++k) {
    own_from_.push_back(k == 0 ? 0.0 : blends_[k - 1].join);
    own_start_.push_back(total_);
    const double own_to = k + 1 < n ? blends_[k].leave : 1.0;
    total_ += tau_[k] * std::max(0.0, own_to - own_from_[k]);
    if (k + 1 < n) {
      blends_[k].start = total_;
      total_ += 2 * blends_[k].half;
    }
  }
}

void BlendedRunPath::SizeBlend(std::size_t k, const ZoneSpec& zone, Blend& b) const {
  // How far each motion goes in the blend, per unit of f = h / tau.
  const double in0 = 2 * Integral(b, 1.0, false), in1 = 2 * Integral(b, 1.0, true);
  const double most = 0.5 * std::min(tau_[k] / in0, tau_[k + 1] / in1);
  double wanted = most;
  if (zone.kind == ZoneKind::kDistance) {
    // Leaving at h in0 L_k / tau_k from the corner along motion k (less
    // along an arc), joining at h in1 L_{k+1} / tau_{k+1}.
    const double per_h = std::max(in0 * motions_[k].extent.length / tau_[k],
                                  in1 * motions_[k + 1].extent.length / tau_[k + 1]);
    wanted = per_h > 0 ? zone.distance / per_h : most;
  }
  if (zone.kind == ZoneKind::kCnt) wanted = zone.percent / 100.0 * most;
  b.reduced = zone.kind == ZoneKind::kDistance && wanted > most * (1 + 1e-12);
  b.half = std::min(wanted, most);
  b.f0 = b.half / tau_[k];
  b.f1 = b.half / tau_[k + 1];
  b.leave = 1 - b.f0 * in0;
  b.join = b.f1 * in1;
}

void BlendedRunPath::CorrectKeepFactor(std::size_t k, Blend& b) const {
  std::vector<double> w, factor = b.keep.y();
  for (int i = 0; i <= kKeepNodes; ++i) {
    const double u = static_cast<double>(i) / kKeepNodes;
    const double a = WeightAt(u).a;
    w.push_back(a);
    const Eigen::Vector3d v0 = MotionPoint(k, b.leave + 2 * b.f0 * Integral(b, u, false)).d1;
    const Eigen::Vector3d v1 = MotionPoint(k + 1, 2 * b.f1 * Integral(b, u, true)).d1;
    const double speed = ((1 - a) * v0 + a * v1).norm() * factor[i];
    if (speed > 1e-12) factor[i] *= ((1 - a) * b.a + a * b.b) / speed;
  }
  SetKeep(b, w, factor);
}

BlendedRunPath::Point BlendedRunPath::MotionPoint(std::size_t k, double x) const {
  const CartesianPath& path = motions_[k].path;
  const double h = kMotionStep;
  const Eigen::Vector3d p = path(x).position;
  const Eigen::Vector3d a = path(x - h).position, b = path(x + h).position;
  const Eigen::Vector3d aa = path(x - 2 * h).position, bb = path(x + 2 * h).position;
  // Per unit s of cruise time: the motion moves 1 / tau of its sigma per s.
  const double r = 1.0 / tau_[k];
  return Point{p, (b - a) / (2 * h) * r, (b - 2 * p + a) / (h * h) * r * r,
               (bb - 2 * b + 2 * a - aa) / (2 * h * h * h) * r * r * r};
}

BlendedRunPath::Place BlendedRunPath::Locate(double s) const {
  Place place;
  const auto it = std::upper_bound(own_start_.begin(), own_start_.end(), s);
  place.k = it == own_start_.begin() ? 0 : static_cast<std::size_t>(it - own_start_.begin()) - 1;
  if (place.k < blends_.size() && s >= blends_[place.k].start) {
    const Blend& b = blends_[place.k];
    place.blend = true;
    place.u = std::clamp((s - b.start) / (2 * b.half), 0.0, 1.0);
    return place;
  }
  place.x = own_from_[place.k] + (s - own_start_[place.k]) / tau_[place.k];
  return place;
}

BlendedRunPath::Point BlendedRunPath::PositionAtTime(double s) const {
  const Place at = Locate(s);
  if (!at.blend) return MotionPoint(at.k, at.x);
  const Blend& b = blends_[at.k];
  const double h = b.half;
  double r0[3], r1[3];
  Rate(b, at.u, false, r0);
  Rate(b, at.u, true, r1);
  const Point p0 = MotionPoint(at.k, b.leave + 2 * b.f0 * Integral(b, at.u, false));
  const Point p1 = MotionPoint(at.k + 1, 2 * b.f1 * Integral(b, at.u, true));
  Point out{p0.p + p1.p - motions_[at.k].end.position, Eigen::Vector3d::Zero(),
            Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  // Each motion's progress rate relative to its cruise rate, per s.
  auto chain = [&](const Point& m, const double* r) {
    const double g0 = r[0], g1 = r[1] / (2 * h), g2 = r[2] / (4 * h * h);
    out.d1 += m.d1 * g0;
    out.d2 += m.d2 * g0 * g0 + m.d1 * g1;
    out.d3 += m.d3 * g0 * g0 * g0 + 3 * m.d2 * g0 * g1 + m.d1 * g2;
  };
  chain(p0, r0);
  chain(p1, r1);
  return out;
}

Eigen::Quaterniond BlendedRunPath::OrientationAtTime(double s) const {
  const Place at = Locate(s);
  if (!at.blend) return motions_[at.k].path(at.x).orientation;
  const Blend& b = blends_[at.k];
  const Eigen::Quaterniond q0 =
      motions_[at.k].path(b.leave + 2 * b.f0 * Integral(b, at.u, false)).orientation;
  const Eigen::Quaterniond q1 =
      motions_[at.k + 1].path(2 * b.f1 * Integral(b, at.u, true)).orientation;
  return (q0 * motions_[at.k].end.orientation.conjugate() * q1).normalized();
}

Pose BlendedRunPath::At(double sigma) const {
  if (sigma <= 0.0) return motions_.front().path(0.0);
  if (sigma >= 1.0) return motions_.back().end;
  const double s = sigma * total_;
  Pose p;
  p.position = PositionAtTime(s).p;
  p.orientation = OrientationAtTime(s);
  return p;
}

TcpRates BlendedRunPath::Rates(double sigma) const {
  const double s = sigma * total_;
  const double t1 = total_, t2 = t1 * t1, t3 = t2 * t1;
  TcpRates r;
  // Distance along the path: |p'| and its derivatives.
  const Point p = PositionAtTime(s);
  const double l1 = p.d1.norm();
  r.linear[0] = l1 * t1;
  if (l1 > 1e-12 * linear_speed_) {
    const double dot = p.d1.dot(p.d2);
    r.linear[1] = dot / l1 * t2;
    r.linear[2] = ((p.d2.squaredNorm() + p.d1.dot(p.d3)) / l1 - dot * dot / (l1 * l1 * l1)) * t3;
  }
  if (!rotates_) return r;
  // Rotation: its rate by differences of the orientation, on a step small
  // against whatever changes nearby.
  const double d = kRotationStepShare * shortest_;
  auto rate = [&](double at) {
    const Eigen::AngleAxisd turn(OrientationAtTime(at - d).conjugate() * OrientationAtTime(at + d));
    return turn.angle() / (2 * d);
  };
  const double w0 = rate(s - d), w1 = rate(s), w2 = rate(s + d);
  r.angular[0] = w1 * t1;
  r.angular[1] = (w2 - w0) / (2 * d) * t2;
  r.angular[2] = (w2 - 2 * w1 + w0) / (d * d) * t3;
  return r;
}

CartesianExtent BlendedRunPath::Extent() const {
  CartesianExtent e;
  // The reference timing cruises a little inside the speed (the margin's
  // reason: curve_timing.h).
  e.length = linear_speed_ * total_ / kRunTcpVelocityMargin;
  // A run that turns the tool by no more than rounding of its targets
  // (kNoRotation each) has no angular rates to keep.
  if (rotates_) {
    for (const SegmentPath& m : motions_) e.rotation += m.extent.rotation;
  }
  e.rates = [this](double sigma) { return Rates(sigma); };
  return e;
}

double BlendedRunPath::LeaveDistance(std::size_t k) const {
  return (motions_[k].path(blends_[k].leave).position - motions_[k].end.position).norm();
}

double BlendedRunPath::JoinDistance(std::size_t k) const {
  return (motions_[k + 1].path(blends_[k].join).position - motions_[k].end.position).norm();
}

}  // namespace motion
