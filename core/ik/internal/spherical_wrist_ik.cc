// Closed-form IK of the spherical-wrist family (see closed_form_ik.h).

#include <cmath>

#include "core/ik/internal/closed_form_ik.h"
#include "core/ik/internal/subproblems.h"

namespace motion {

int SolveSphericalWrist(const ArmGeometry& g, const Eigen::Isometry3d& tip,
                        const Eigen::VectorXd& seed, Vector6d out[kMaxClosedFormBranches],
                        bool* free_angle) {
  *free_angle = false;
  const auto& h = g.h;
  const auto& p = g.p;
  const Eigen::Isometry3d motion = tip * g.tip_at_zero.inverse();  // E_1 ... E_6
  const Eigen::Vector3d& centre0 = g.wrist_point;
  const Eigen::Vector3d centre = motion * centre0;

  // theta_1: h2 . rot(h1, -theta_1) (W - p1) = h2 . (W0 - p1).
  double theta1[2];
  bool degenerate = false;
  int n1 = Subproblem4(h[1], centre - p[0], h[0], h[1].dot(centre0 - p[0]),
                       kClosedFormPositionSlack, theta1, &degenerate);
  for (int i = 0; i < n1; ++i) theta1[i] = -theta1[i];
  if (degenerate) {  // W on axis 1 (shoulder singular): any theta_1
    *free_angle = true;
    theta1[0] = WrapAngle(seed[0]);
    theta1[1] = WrapAngle(seed[0] + M_PI);
    n1 = 2;
  }
  const Eigen::Vector3d b = p[2] - p[1] - h[1] * h[1].dot(p[2] - p[1]);
  const Eigen::Vector3d a = centre0 - p[2] - h[1] * h[1].dot(centre0 - p[2]);
  const Eigen::Vector3d normal6 = UnitNormalTo(h[5]);
  int n = 0;
  for (int i1 = 0; i1 < n1; ++i1) {
    const Eigen::Vector3d centre1 = p[0] + Rotate(h[0], -theta1[i1], centre - p[0]);
    const Eigen::Vector3d t = centre1 - p[1] - h[1] * h[1].dot(centre1 - p[1]);
    double theta2[2], theta3[2];
    const int n23 = SolvePlanar2R(h[1], h[2], b, a, t, seed[1], theta2, theta3);
    for (int i23 = 0; i23 < n23; ++i23) {
      const Eigen::Matrix3d r03 =
          (Eigen::AngleAxisd(theta1[i1], h[0]) * Eigen::AngleAxisd(theta2[i23], h[1]) *
           Eigen::AngleAxisd(theta3[i23], h[2]))
              .toRotationMatrix();
      const Eigen::Matrix3d r36 = r03.transpose() * motion.linear();
      // theta_5: h4 . rot(h5, theta_5) h6 = h4 . R_36 h6.
      double theta5[2];
      bool wrist_degenerate = false;
      int n5 = Subproblem4(h[3], h[5], h[4], h[3].dot(r36 * h[5]), kClosedFormAngleSlack, theta5,
                           &wrist_degenerate);
      if (wrist_degenerate) {
        *free_angle = true;
        theta5[0] = WrapAngle(seed[4]);
        n5 = 1;
      }
      for (int i5 = 0; i5 < n5; ++i5) {
        double theta4 = WrapAngle(seed[3]);
        const Eigen::Vector3d moved6 = Rotate(h[4], theta5[i5], h[5]);
        if (!Subproblem1(moved6, r36 * h[5], h[3], kClosedFormWristSingular, &theta4))
          *free_angle = true;
        const Eigen::Matrix3d rest =
            (Eigen::AngleAxisd(theta4, h[3]) * Eigen::AngleAxisd(theta5[i5], h[4]))
                .toRotationMatrix()
                .transpose() *
            r36;
        double theta6 = 0.0;
        Subproblem1(normal6, rest * normal6, h[5], 0.0, &theta6);
        Vector6d& q = out[n++];
        q << theta1[i1], theta2[i23], theta3[i23], theta4, theta5[i5], theta6;
        for (int j = 0; j < 6; ++j) q[j] = WrapAngle(q[j]);
      }
    }
  }
  return n;
}

}  // namespace motion
