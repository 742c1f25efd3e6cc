#pragma once

// Shared by the configuration and closed-form IK tests: the flags of a joint
// vector computed by the test itself from the independent FK (TinyXML URDF,
// Rodrigues) and the definitions in README "Robot configurations", and
// synthetic spherical-wrist / UR arms with random link lengths, offsets,
// axis signs, frame rotations and base / tool transforms, written as URDF.

#include <array>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/model/robot_model.h"
#include "ik_test_support.h"

namespace motion_test {

/// Axis direction and a point on it of every DOF at q (core DOF order),
/// from the independent link poses.
struct IndependentAxes {
  std::vector<Eigen::Vector3d> h, p;
};

inline IndependentAxes AxesAt(const TestChain& c, const Eigen::VectorXd& q) {
  Eigen::VectorXd qi(c.dof());
  for (int i = 0; i < c.dof(); ++i) qi[c.independent_dof[i]] = q[i];
  const std::vector<Eigen::Isometry3d> poses = IndependentLinkPoses(c.independent, qi);
  IndependentAxes out;
  out.h.resize(c.dof());
  out.p.resize(c.dof());
  for (std::size_t k = 0; k < c.independent.path.size(); ++k) {
    const int dof = c.independent.dof_of[k];
    if (dof < 0) continue;
    const UrdfJointSpec& j = *c.independent.path[k];
    const Eigen::Isometry3d frame = poses[k] * Transform(RotRpy(j.rpy), j.xyz);
    for (int i = 0; i < c.dof(); ++i) {
      if (c.independent_dof[i] != dof) continue;
      out.h[i] = frame.linear() * j.axis.normalized();
      out.p[i] = frame.translation();
    }
  }
  return out;
}

/// The point nearest to both lines (p1, h1) and (p2, h2) (least squares).
inline Eigen::Vector3d NearestPoint(const Eigen::Vector3d& p1, const Eigen::Vector3d& h1,
                                    const Eigen::Vector3d& p2, const Eigen::Vector3d& h2) {
  Eigen::Matrix<double, 3, 2> a;
  a.col(0) = h1;
  a.col(1) = -h2;
  const Eigen::Vector2d t = a.colPivHouseholderQr().solve(p2 - p1);
  return 0.5 * (p1 + t[0] * h1 + p2 + t[1] * h2);
}

inline int Sign(double v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

enum class Family { kSphericalWrist, kUr, kSevenAxis };

/// The flags by the README's definitions, from the independent axes: the
/// wrist point is where axes 4 and 5 (spherical) or 5 and 6 (UR) meet at q;
/// reference signs from the zero configuration. Requires the wrist (and the
/// 7-axis pivots) aligned at zero, as on every arm tested here.
inline std::array<int, 3> IndependentFlags(const TestChain& c, Family family,
                                           const Eigen::VectorXd& q) {
  const IndependentAxes a = AxesAt(c, q);
  const IndependentAxes z = AxesAt(c, Eigen::VectorXd::Zero(c.dof()));
  const auto pivot = [&](int k) {
    const double aligned = z.h[k - 1].dot(z.h[k + 1]);
    EXPECT_GT(std::abs(aligned), 1.0 - 1e-9) << "pivot " << k << " not aligned at zero";
    return Sign(a.h[k].dot(a.h[k - 1].cross(a.h[k + 1]))) * Sign(aligned);
  };
  if (family == Family::kSevenAxis) return {pivot(1), pivot(3), pivot(5)};
  const auto wrist_point = [&](const IndependentAxes& x) {
    return family == Family::kSphericalWrist ? NearestPoint(x.p[3], x.h[3], x.p[4], x.h[4])
                                             : NearestPoint(x.p[4], x.h[4], x.p[5], x.h[5]);
  };
  const Eigen::Vector3d w = wrist_point(a), w0 = wrist_point(z);
  const double shoulder0 = z.h[1].dot(z.h[0].cross(w0 - z.p[0]));
  EXPECT_GT(std::abs(shoulder0), 1e-6) << "wrist point on axis 1 at zero";
  const int shoulder = Sign(a.h[1].dot(a.h[0].cross(w - a.p[0]))) * Sign(shoulder0);
  // Elbow "up": along axis 1 from the base origin towards axis 2; "front":
  // where the wrist point is at zero.
  const Eigen::Vector3d up = Sign(z.h[0].dot(z.p[1])) * z.h[0];
  const Eigen::Vector3d front = Sign(shoulder0) * z.h[1].cross(z.h[0]);
  const int elbow_reference = Sign(z.h[1].dot(up.cross(front)));
  const Eigen::Vector3d end = family == Family::kSphericalWrist ? w : a.p[3];
  const int elbow = Sign(a.h[1].dot((a.p[2] - a.p[1]).cross(end - a.p[1]))) * elbow_reference;
  return {shoulder, elbow, pivot(4)};
}

// ------------------------------------------------------- synthetic arms

inline Eigen::Vector3d Rpy(const Eigen::Matrix3d& r) {
  return Eigen::Vector3d(std::atan2(r(2, 1), r(2, 2)), std::asin(-std::clamp(r(2, 0), -1.0, 1.0)),
                         std::atan2(r(1, 0), r(0, 0)));
}

inline Eigen::Matrix3d RandomRotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

/// A 6R arm described in the world at its zero configuration: joint k at
/// `position[k]` turning about `axis[k]`; the flange at `flange`.
struct NominalArm {
  std::vector<Eigen::Vector3d> position, axis;
  Eigen::Isometry3d flange = Eigen::Isometry3d::Identity();
};

/// The URDF of `arm` with every joint frame turned by a random rotation (the
/// axis written in the turned frame, its sign random), a random base mount
/// before joint 1 and a random tool frame after the flange: the geometry is
/// the nominal one, every number in the file is different.
inline std::string SyntheticUrdf(const NominalArm& arm, std::mt19937_64& rng) {
  std::ostringstream x;
  x.precision(17);
  const auto v = [&](const Eigen::Vector3d& a) {
    std::ostringstream s;
    s.precision(17);
    s << a.x() << " " << a.y() << " " << a.z();
    return s.str();
  };
  x << "<robot name=\"synthetic\">\n<link name=\"base_link\"/><link name=\"mount\"/>\n";
  Eigen::Isometry3d mount = Eigen::Isometry3d::Identity();
  mount.linear() = RandomRotation(rng);
  mount.translation() = Eigen::Vector3d(0.1, -0.2, 0.3);
  x << "<joint name=\"base_mount\" type=\"fixed\"><parent link=\"base_link\"/><child "
       "link=\"mount\"/>"
    << "<origin xyz=\"" << v(mount.translation()) << "\" rpy=\"" << v(Rpy(mount.linear()))
    << "\"/></joint>\n";
  // Frames in the mount (= nominal world) coordinates.
  Eigen::Isometry3d previous = Eigen::Isometry3d::Identity();
  std::string parent = "mount";
  std::uniform_int_distribution<int> coin(0, 1);
  for (int k = 0; k < 6; ++k) {
    Eigen::Isometry3d frame = Eigen::Isometry3d::Identity();
    frame.linear() = RandomRotation(rng);
    frame.translation() = arm.position[k];
    const Eigen::Isometry3d origin = previous.inverse() * frame;
    const double sign = coin(rng) ? 1.0 : -1.0;
    const std::string child = "link_" + std::to_string(k + 1);
    x << "<link name=\"" << child << "\"/>\n<joint name=\"joint_" << k + 1
      << "\" type=\"revolute\"><parent link=\"" << parent << "\"/><child link=\"" << child
      << "\"/><origin xyz=\"" << v(origin.translation()) << "\" rpy=\"" << v(Rpy(origin.linear()))
      << "\"/><axis xyz=\"" << v(sign * (frame.linear().transpose() * arm.axis[k]))
      << "\"/><limit lower=\"-6.28\" upper=\"6.28\" velocity=\"1\" effort=\"0\"/></joint>\n";
    previous = frame;
    parent = child;
  }
  Eigen::Isometry3d tool = arm.flange;
  tool.linear() = arm.flange.linear() * RandomRotation(rng);
  const Eigen::Isometry3d origin = previous.inverse() * tool;
  x << "<link name=\"tool0\"/>\n<joint name=\"tool_joint\" type=\"fixed\"><parent link=\"link_6\"/>"
    << "<child link=\"tool0\"/><origin xyz=\"" << v(origin.translation()) << "\" rpy=\""
    << v(Rpy(origin.linear())) << "\"/></joint>\n</robot>\n";
  return x.str();
}

/// A spherical-wrist arm with random shoulder offsets, arm lengths and a
/// forearm offset (ABB / KUKA / FANUC shape).
inline NominalArm RandomSphericalWristArm(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.05, 0.6), s(-0.15, 0.15);
  NominalArm a;
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), y = Eigen::Vector3d::UnitY(),
                        z = Eigen::Vector3d::UnitZ();
  a.position.push_back(Eigen::Vector3d(0, 0, u(rng)));
  a.position.push_back(a.position[0] + Eigen::Vector3d(s(rng), s(rng), u(rng) * 0.5));
  a.position.push_back(a.position[1] + Eigen::Vector3d(s(rng) * 0.3, s(rng), u(rng) + 0.2));
  a.position.push_back(a.position[2] + Eigen::Vector3d(0.0, 0.0, s(rng)));
  a.position.push_back(a.position[3] + Eigen::Vector3d(u(rng) + 0.2, 0, 0));
  a.position.push_back(a.position[4] + Eigen::Vector3d(u(rng) * 0.3, 0, 0));
  a.axis = {z, y, y, x, y, x};
  a.flange.translation() = a.position[5] + Eigen::Vector3d(0.05, 0, 0);
  return a;
}

/// A UR-shaped arm: lift, elbow and wrist-1 parallel, axes 5 and 6 meeting.
inline NominalArm RandomUrArm(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.05, 0.15), l(0.25, 0.7);
  NominalArm a;
  const Eigen::Vector3d y = Eigen::Vector3d::UnitY(), z = Eigen::Vector3d::UnitZ();
  a.position.push_back(Eigen::Vector3d(0, 0, u(rng)));
  a.position.push_back(a.position[0] + Eigen::Vector3d(0, u(rng), 0));
  a.position.push_back(a.position[1] + Eigen::Vector3d(-l(rng), -u(rng), 0));
  a.position.push_back(a.position[2] + Eigen::Vector3d(-l(rng), 0, 0));
  a.position.push_back(a.position[3] + Eigen::Vector3d(0, u(rng), 0));
  a.position.push_back(a.position[4] + Eigen::Vector3d(0, 0, -u(rng)));
  a.axis = {z, y, y, y, -z, y};
  a.flange.translation() = a.position[5] + Eigen::Vector3d(0, u(rng), 0);
  return a;
}

/// A TestChain for URDF text (base_link -> tool0).
inline TestChain LoadTestChainFromText(const std::string& urdf) {
  TestChain c;
  auto model = motion::RobotModel::FromUrdf(urdf);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return c;
  auto chain = (*model)->Chain("base_link", "tool0");
  EXPECT_TRUE(chain.ok()) << chain.status();
  if (!chain.ok()) return c;
  c.spec = ReadUrdfSpec(urdf);
  c.independent = WalkChain(c.spec, "base_link", "tool0");
  for (int i = 0; i < (*chain)->dof(); ++i) {
    c.independent_dof.push_back(i);  // one movable joint per DOF, in chain order
    c.type.push_back("revolute");
    c.lower.push_back(-6.28);
    c.upper.push_back(6.28);
  }
  c.model = *chain;
  return c;
}

}  // namespace motion_test
