// Closed-form IK of the UR family (see closed_form_ik.h).

#include <cmath>

#include "core/ik/internal/closed_form_ik.h"
#include "core/ik/internal/subproblems.h"

namespace motion {

int SolveUrFamily(const ArmGeometry& g, const Eigen::Isometry3d& tip, const Eigen::VectorXd& seed,
                  Vector6d out[kMaxClosedFormBranches], bool* free_angle) {
  *free_angle = false;
  const auto& h = g.h;
  const auto& p = g.p;
  const Eigen::Vector3d& k = h[1];  // the parallel axes' direction
  const double s3 = h[2].dot(k) > 0 ? 1.0 : -1.0;
  const double s4 = h[3].dot(k) > 0 ? 1.0 : -1.0;
  const Eigen::Isometry3d motion = tip * g.tip_at_zero.inverse();  // E_1 ... E_6
  const Eigen::Vector3d& point0 = g.wrist_point;                   // axes 5 and 6 meet there
  const Eigen::Vector3d point = motion * point0;

  // theta_1: k . rot(h1, -theta_1) (P - p1) = k . (P0 - p1).
  double theta1[2];
  bool degenerate = false;
  int n1 = Subproblem4(k, point - p[0], h[0], k.dot(point0 - p[0]), kClosedFormPositionSlack,
                       theta1, &degenerate);
  for (int i = 0; i < n1; ++i) theta1[i] = -theta1[i];
  if (degenerate) {
    *free_angle = true;
    theta1[0] = WrapAngle(seed[0]);
    theta1[1] = WrapAngle(seed[0] + M_PI);
    n1 = 2;
  }
  const Eigen::Vector3d b = p[2] - p[1] - k * k.dot(p[2] - p[1]);
  const Eigen::Vector3d a = p[3] - p[2] - k * k.dot(p[3] - p[2]);
  const Eigen::Vector3d normal = UnitNormalTo(k);
  int n = 0;
  for (int i1 = 0; i1 < n1; ++i1) {
    const Eigen::Matrix3d r16 =
        Eigen::AngleAxisd(-theta1[i1], h[0]).toRotationMatrix() * motion.linear();
    // theta_5: k . rot(h5, theta_5) h6 = k . R_16 h6 (rotations about k keep k).
    double theta5[2];
    bool wrist_degenerate = false;
    int n5 = Subproblem4(k, h[5], h[4], k.dot(r16 * h[5]), kClosedFormAngleSlack, theta5,
                         &wrist_degenerate);
    if (wrist_degenerate) {
      *free_angle = true;
      theta5[0] = WrapAngle(seed[4]);
      n5 = 1;
    }
    const Eigen::Vector3d point1 = p[0] + Rotate(h[0], -theta1[i1], point - p[0]);
    for (int i5 = 0; i5 < n5; ++i5) {
      // theta_6: rot(h6, -theta_6) rot(h5, -theta_5) k = R_16^T k.
      double theta6 = -WrapAngle(seed[5]);
      if (!Subproblem1(Rotate(h[4], -theta5[i5], k), r16.transpose() * k, h[5],
                       kClosedFormWristSingular, &theta6)) {
        *free_angle = true;
      }
      theta6 = -theta6;
      // rot(k, theta_2 + s3 theta_3 + s4 theta_4) = R_16 rot(h6, theta_6)^T rot(h5, theta_5)^T.
      const Eigen::Matrix3d sum_rotation =
          r16 * (Eigen::AngleAxisd(theta5[i5], h[4]) * Eigen::AngleAxisd(theta6, h[5]))
                    .toRotationMatrix()
                    .transpose();
      double sum = 0.0;
      Subproblem1(normal, sum_rotation * normal, k, 0.0, &sum);
      // Axis 4's point: E_2 E_3 E_4 P0 = p2 + R2 (p3 - p2) + R2 R3 (p4 - p3) + R_sum (P0 - p4).
      const Eigen::Vector3d rest = point1 - p[1] - Rotate(k, sum, point0 - p[3]);
      const Eigen::Vector3d t = rest - k * k.dot(rest);
      double theta2[2], theta3[2];
      const int n23 = SolvePlanar2R(k, h[2], b, a, t, seed[1], theta2, theta3);
      for (int i23 = 0; i23 < n23; ++i23) {
        const double theta4 = s4 * (sum - theta2[i23] - s3 * theta3[i23]);
        Vector6d& q = out[n++];
        q << theta1[i1], theta2[i23], theta3[i23], theta4, theta5[i5], theta6;
        for (int j = 0; j < 6; ++j) q[j] = WrapAngle(q[j]);
      }
    }
  }
  return n;
}

}  // namespace motion
