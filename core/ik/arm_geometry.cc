#include "core/ik/arm_geometry.h"

#include <cmath>

namespace motion {
namespace {

constexpr double kTolerance = ArmGeometry::kGeometryTolerance;

bool Parallel(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return a.cross(b).norm() < kTolerance;
}

Eigen::Vector3d Perpendicular(const Eigen::Vector3d& v, const Eigen::Vector3d& k) {
  return v - k * k.dot(v);
}

double DistanceToLine(const Eigen::Vector3d& x, const Eigen::Vector3d& p,
                      const Eigen::Vector3d& h) {
  return Perpendicular(x - p, h).norm();
}

// Whether the lines (p1, h1) and (p2, h2) meet (within the tolerance); if
// so, `point` is the middle of their closest points.
bool LinesMeet(const Eigen::Vector3d& p1, const Eigen::Vector3d& h1, const Eigen::Vector3d& p2,
               const Eigen::Vector3d& h2, Eigen::Vector3d* point) {
  if (Parallel(h1, h2)) return false;
  const Eigen::Vector3d n = h1.cross(h2);
  if (std::abs((p2 - p1).dot(n)) / n.norm() > kTolerance) return false;
  const Eigen::Vector3d w = p1 - p2;
  const double b = h1.dot(h2), d = h1.dot(w), e = h2.dot(w);
  const double denominator = 1.0 - b * b;
  const double t1 = (b * e - d) / denominator, t2 = (e - b * d) / denominator;
  *point = 0.5 * ((p1 + t1 * h1) + (p2 + t2 * h2));
  return true;
}

int SignOf(double v, double eps) { return v > eps ? 1 : (v < -eps ? -1 : 0); }

// The turn sense of a pivot joint k between axes k-1 and k+1: the triple
// product h_k . (h_{k-1} x h_{k+1}) is a cos(theta_k) + b sin(theta_k) (the
// joints before k-1 rotate all three alike). Its sign, times the returned
// value, is +1 when theta_k is turned positive from the aligned angle
// (where the sinusoid vanishes) nearest zero. 0: no such angle (a pivot
// parallel to a neighbour).
int PivotSign(const Eigen::Vector3d& h_prev, const Eigen::Vector3d& h_k,
              const Eigen::Vector3d& h_next) {
  const double a = h_k.dot(h_prev.cross(h_next));
  const double b = h_k.dot(h_prev.cross(h_k.cross(h_next)));
  if (std::hypot(a, b) < kTolerance) return 0;
  double aligned = std::atan2(-a, b);
  for (double candidate : {aligned - M_PI, aligned + M_PI}) {
    if (std::abs(candidate) < std::abs(aligned)) aligned = candidate;
  }
  return SignOf(-a * std::sin(aligned) + b * std::cos(aligned), 0.0);
}

bool DetectSphericalWrist(ArmGeometry& g) {
  const auto& h = g.h;
  const auto& p = g.p;
  if (Parallel(h[0], h[1]) || !Parallel(h[1], h[2])) return false;
  Eigen::Vector3d centre;
  if (!LinesMeet(p[3], h[3], p[4], h[4], &centre)) return false;
  if (DistanceToLine(centre, p[5], h[5]) > kTolerance || Parallel(h[4], h[5])) return false;
  // A real 2R elbow in the plane normal to axis 2.
  if (Perpendicular(p[2] - p[1], h[1]).norm() < kTolerance ||
      Perpendicular(centre - p[2], h[1]).norm() < kTolerance) {
    return false;
  }
  g.family = ArmFamily::kSphericalWrist;
  g.wrist_point = centre;
  g.forearm_end_axis = -1;
  return true;
}

bool DetectUr(ArmGeometry& g) {
  const auto& h = g.h;
  const auto& p = g.p;
  if (Parallel(h[0], h[1]) || !Parallel(h[1], h[2]) || !Parallel(h[2], h[3])) return false;
  Eigen::Vector3d point;
  if (!LinesMeet(p[4], h[4], p[5], h[5], &point) || Parallel(h[4], h[1])) return false;
  if (Perpendicular(p[2] - p[1], h[1]).norm() < kTolerance ||
      Perpendicular(p[3] - p[2], h[1]).norm() < kTolerance) {
    return false;
  }
  g.family = ArmFamily::kUr;
  g.wrist_point = point;
  g.forearm_end_axis = 3;
  return true;
}

// Shoulder: "front" is the side of axis 1 the wrist point is on at the zero
// configuration (or, when it is on axis 1 there, the side it moves to as
// joint 2 turns positive). Elbow: "up" is along axis 1 from the base frame
// origin towards axis 2; an elbow above the shoulder-wrist line with the
// wrist in front is +1.
void SetArmReferenceSigns(ArmGeometry& g) {
  const auto& h = g.h;
  const auto& p = g.p;
  const double at_zero = h[1].dot(h[0].cross(g.wrist_point - p[0]));
  g.shoulder_sign = SignOf(at_zero, kTolerance);
  if (g.shoulder_sign == 0) {
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(6);
    theta[1] = 0.1;
    Eigen::Vector3d axes[6], points[6];
    const Eigen::Isometry3d moved = MoveAxes(g, theta, axes, points);
    g.shoulder_sign = SignOf(axes[1].dot(axes[0].cross(moved * g.wrist_point - p[0])), 0.0);
    if (g.shoulder_sign == 0) g.shoulder_sign = 1;
  }
  int up_sign = SignOf(h[0].dot(p[1]), kTolerance);
  if (up_sign == 0) up_sign = 1;
  const Eigen::Vector3d up = up_sign * h[0];
  const Eigen::Vector3d front = g.shoulder_sign * h[1].cross(h[0]);
  g.elbow_sign = SignOf(h[1].dot(up.cross(front)), 0.0);
  if (g.elbow_sign == 0) g.elbow_sign = 1;
  g.pivot[2] = 4;
  g.pivot_sign[2] = PivotSign(h[3], h[4], h[5]);
  g.wrist_sign = g.pivot_sign[2];
}

bool DetectSevenAxis(ArmGeometry& g) {
  for (int k = 0; k < 3; ++k) {
    const int j = 2 * k + 1;
    g.pivot[k] = j;
    g.pivot_sign[k] = PivotSign(g.h[j - 1], g.h[j], g.h[j + 1]);
    if (g.pivot_sign[k] == 0) return false;
  }
  g.family = ArmFamily::kSevenAxis;
  g.shoulder_sign = g.pivot_sign[0];
  g.elbow_sign = g.pivot_sign[1];
  g.wrist_sign = g.pivot_sign[2];
  return true;
}

}  // namespace

const char* ArmFamilyName(ArmFamily family) {
  switch (family) {
    case ArmFamily::kOther:
      return "other";
    case ArmFamily::kSphericalWrist:
      return "spherical_wrist";
    case ArmFamily::kUr:
      return "ur";
    case ArmFamily::kSevenAxis:
      return "seven_axis";
  }
  return "unknown";
}

Eigen::Isometry3d RotationAboutLine(const Eigen::Vector3d& h, const Eigen::Vector3d& p,
                                    double theta) {
  Eigen::Isometry3d e = Eigen::Isometry3d::Identity();
  e.linear() = Eigen::AngleAxisd(theta, h).toRotationMatrix();
  e.translation() = p - e.linear() * p;
  return e;
}

Eigen::Isometry3d MoveAxes(const ArmGeometry& g, const Eigen::Ref<const Eigen::VectorXd>& theta,
                           Eigen::Vector3d* axes, Eigen::Vector3d* points) {
  Eigen::Isometry3d moved = Eigen::Isometry3d::Identity();
  for (std::size_t i = 0; i < g.h.size(); ++i) {
    axes[i] = moved.linear() * g.h[i];
    if (points != nullptr) points[i] = moved * g.p[i];
    moved = moved * RotationAboutLine(g.h[i], g.p[i], theta[static_cast<Eigen::Index>(i)]);
  }
  return moved;
}

ArmGeometry DetectArmGeometry(const ChainModel& model) {
  ArmGeometry g;
  const int n = static_cast<int>(model.joints.size());
  if (!model.mimics.empty() || n != model.dof() || (n != 6 && n != 7)) return g;
  Eigen::Isometry3d frame = Eigen::Isometry3d::Identity();
  for (int k = 0; k < n; ++k) {
    const ChainJoint& joint = model.joints[k];
    if (joint.type == JointType::kPrismatic || joint.dof != k || joint.multiplier != 1.0 ||
        joint.offset != 0.0) {
      return ArmGeometry{};
    }
    frame = frame * joint.origin;
    g.h.push_back((frame.linear() * joint.axis).normalized());
    g.p.push_back(frame.translation());
  }
  g.tip_at_zero = frame * model.tip_offset;
  if (n == 7) {
    if (!DetectSevenAxis(g)) return ArmGeometry{};
    return g;
  }
  if (!DetectSphericalWrist(g) && !DetectUr(g)) return ArmGeometry{};
  SetArmReferenceSigns(g);
  return g;
}

}  // namespace motion
