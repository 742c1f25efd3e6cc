#include "core/ik/internal/subproblems.h"

#include <algorithm>
#include <cmath>

namespace motion {

Eigen::Vector3d Rotate(const Eigen::Vector3d& k, double theta, const Eigen::Vector3d& p) {
  const double c = std::cos(theta), s = std::sin(theta);
  return p * c + k.cross(p) * s + k * (k.dot(p) * (1.0 - c));
}

bool Subproblem1(const Eigen::Vector3d& p1, const Eigen::Vector3d& p2, const Eigen::Vector3d& k,
                 double min_length, double* theta) {
  const Eigen::Vector3d a = p1 - k * k.dot(p1);
  const Eigen::Vector3d b = p2 - k * k.dot(p2);
  if (a.norm() < min_length || b.norm() < min_length) return false;
  *theta = std::atan2(k.dot(a.cross(b)), a.dot(b));
  return true;
}

int Subproblem4(const Eigen::Vector3d& h, const Eigen::Vector3d& p, const Eigen::Vector3d& k,
                double d, double slack, double theta[2], bool* degenerate) {
  const double kp = k.dot(p), hk = h.dot(k);
  const double a = h.dot(p) - hk * kp;
  const double b = h.dot(k.cross(p));
  const double rhs = d - hk * kp;
  const double r = std::hypot(a, b);
  *degenerate = r < 1e-12;
  if (*degenerate) return 0;
  const double phi = std::atan2(b, a);
  const double ratio = rhs / r;
  if (std::abs(ratio) >= 1.0) {
    if (std::abs(rhs) - r > slack) return 0;
    theta[0] = WrapAngle(phi + (ratio > 0 ? 0.0 : M_PI));
    return 1;
  }
  const double spread = std::acos(ratio);
  theta[0] = WrapAngle(phi + spread);
  theta[1] = WrapAngle(phi - spread);
  return 2;
}

int SolvePlanar2R(const Eigen::Vector3d& k2, const Eigen::Vector3d& k3, const Eigen::Vector3d& b,
                  const Eigen::Vector3d& a, const Eigen::Vector3d& t, double seed2, double t2[2],
                  double t3[2]) {
  // |b + rot(k3, t3) a| = |t|  <=>  b . rot(k3, t3) a = (|t|^2 - |a|^2 - |b|^2) / 2.
  const double d = 0.5 * (t.squaredNorm() - a.squaredNorm() - b.squaredNorm());
  // A target a few micrometres beyond the stretched or folded arm still
  // gets the boundary solution; the FK check decides whether it is one.
  const double slack = 2e-5 * (a.norm() + b.norm());
  bool degenerate = false;
  const int n = Subproblem4(b, a, k3, d, slack, t3, &degenerate);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d elbow = b + Rotate(k3, t3[i], a);
    if (!Subproblem1(elbow, t, k2, 1e-9, &t2[i])) t2[i] = WrapAngle(seed2);
  }
  return n;
}

double WrapAngle(double theta) {
  if (theta <= M_PI && theta > -M_PI) return theta;  // the usual case, without a division
  double r = std::remainder(theta, 2.0 * M_PI);
  if (r <= -M_PI) r += 2.0 * M_PI;
  return r;
}

Eigen::Vector3d UnitNormalTo(const Eigen::Vector3d& k) {
  const Eigen::Vector3d other =
      std::abs(k.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return (other - k * k.dot(other)).normalized();
}

}  // namespace motion
