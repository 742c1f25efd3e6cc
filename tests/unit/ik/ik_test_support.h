#pragma once

// Shared by the IK tests: a core chain and, for the same base -> tip, the
// test-side chain of independent_fk.h (URDF read with TinyXML, FK written
// from the URDF spec). Every strict verdict on an IK answer is taken with the
// independent FK and the limits as written in the URDF, never with core's FK.

#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/cache/chain_data_cache.h"
#include "core/geometry/pose.h"
#include "core/ik/ik_solver.h"
#include "core/model/chain_model.h"
#include "core/model/robot_model.h"
#include "independent_fk.h"
#include "unit_test_support.h"

namespace motion_test {

inline constexpr double kTwoPi = 2 * kPi;

/// The product tolerances of design.md ("strict").
inline constexpr double kStrictPosition = 1e-5;  // m
inline constexpr double kStrictRotation = 1e-5;  // rad

/// A bundled robot and the chain to solve on.
struct ArmSpec {
  const char* label;  ///< test name suffix
  const char* file;
  const char* base;
  const char* tip;
};

/// The arms the tests name one by one.
inline constexpr ArmSpec kUr5{"ur5", "ur5.urdf", "base_link", "tool0"};
inline constexpr ArmSpec kPanda{"panda", "panda.urdf", "panda_link0", "panda_link8"};
inline constexpr ArmSpec kPlanar2r{"planar_2r", "planar_2r.urdf", "base_link", "tool"};
inline constexpr ArmSpec kQuirks{"quirks", "quirks.urdf", "base_link", "tool"};

/// The arm chain of every bundled robot, as listed in robots/README.md.
inline std::vector<ArmSpec> BundledArms() {
  return {
      kUr5,
      {"ur5e", "ur5e.urdf", "base_link", "tool0"},
      {"ur10", "ur10.urdf", "base_link", "tool0"},
      kPanda,
      {"iiwa14", "iiwa14.urdf", "base", "iiwa_link_ee_kuka"},
      {"kuka_iiwa14_r820", "kuka_iiwa14_r820.urdf", "base_link", "tool0"},
      {"abb_irb2400", "abb_irb2400.urdf", "base_link", "tool0"},
      {"abb_irb120", "abb_irb120.urdf", "base_link", "tool0"},
      {"fanuc_m10ia", "fanuc_m10ia.urdf", "base_link", "tool0"},
      {"fanuc_lrmate200id", "fanuc_lrmate200id.urdf", "base_link", "tool0"},
      kPlanar2r,
      kQuirks,
  };
}

/// The TCP alternatives the README names for the same arms.
inline std::vector<ArmSpec> AlternativeChains() {
  return {
      {"panda_hand_tcp", "panda.urdf", "panda_link0", "panda_hand_tcp"},
      {"iiwa14_link_ee", "iiwa14.urdf", "base", "iiwa_link_ee"},
  };
}

/// A chain holding a mimic joint whose master is outside it: quirks' right
/// finger (finger_right_joint mimics finger_left_joint), 5 DOF.
inline std::vector<ArmSpec> MimicChains() {
  return {{"quirks_finger_right_mimic", "quirks.urdf", "base_link", "finger_right"}};
}

inline std::string ArmName(const testing::TestParamInfo<ArmSpec>& info) { return info.param.label; }

/// Readable parameters in gtest's failure messages.
inline void PrintTo(const ArmSpec& arm, std::ostream* os) { *os << arm.label; }

/// The core chain plus its independent twin, with the DOF order mapped by
/// joint name (core: chain order; independent: first seen base -> tip).
struct TestChain {
  std::shared_ptr<const motion::ChainModel> model;
  UrdfSpec spec;
  IndependentChain independent;
  std::vector<int> independent_dof;  ///< core DOF i -> independent DOF
  std::vector<double> lower, upper;  ///< per core DOF, from the URDF (+-inf: continuous)
  std::vector<std::string> type;     ///< per core DOF: "revolute", "continuous", "prismatic"

  int dof() const { return static_cast<int>(independent_dof.size()); }

  /// Independent FK of the tip for joints in core's DOF order.
  Eigen::Isometry3d Fk(const Eigen::VectorXd& q) const {
    Eigen::VectorXd qi(dof());
    for (int i = 0; i < dof(); ++i) qi[independent_dof[i]] = q[i];
    return IndependentFk(independent, qi);
  }

  /// Uniform within the URDF limits; continuous joints in [-2 pi, 2 pi].
  Eigen::VectorXd Random(std::mt19937_64& rng) const {
    const Eigen::VectorXd qi = RandomJoints(spec, independent, rng);
    Eigen::VectorXd q(dof());
    for (int i = 0; i < dof(); ++i) q[i] = qi[independent_dof[i]];
    return q;
  }

  /// Middle of every URDF range (0 for continuous joints).
  Eigen::VectorXd MidRange() const {
    Eigen::VectorXd q(dof());
    for (int i = 0; i < dof(); ++i) {
      q[i] = std::isfinite(lower[i]) ? 0.5 * (lower[i] + upper[i]) : 0.0;
    }
    return q;
  }

  /// Index of the first DOF outside the URDF limits, or -1.
  int FirstOutside(const Eigen::VectorXd& q) const {
    for (int i = 0; i < dof(); ++i) {
      if (!(q[i] >= lower[i] && q[i] <= upper[i])) return i;
    }
    return -1;
  }

  int DofIndex(const std::string& name) const {
    for (int i = 0; i < dof(); ++i) {
      if (model->dof_names[i] == name) return i;
    }
    return -1;
  }
};

/// Loads `arm`; on failure records a test failure and returns an empty chain.
inline TestChain LoadTestChain(const ArmSpec& arm) {
  TestChain c;
  const std::shared_ptr<const motion::ChainModel> chain = LoadChain(arm.file, arm.base, arm.tip);
  if (chain == nullptr) return c;
  c.spec = ReadRobotSpec(arm.file);
  c.independent = WalkChain(c.spec, arm.base, arm.tip);
  const motion::ChainModel& m = *chain;
  EXPECT_EQ(static_cast<std::size_t>(m.dof()), c.independent.dof_names.size()) << arm.file;
  if (static_cast<std::size_t>(m.dof()) != c.independent.dof_names.size()) return c;
  for (int i = 0; i < m.dof(); ++i) {
    int found = -1;
    for (std::size_t k = 0; k < c.independent.dof_names.size(); ++k) {
      if (c.independent.dof_names[k] == m.dof_names[i]) found = static_cast<int>(k);
    }
    EXPECT_GE(found, 0) << arm.file << ": core DOF " << m.dof_names[i] << " not in the URDF walk";
    if (found < 0) return TestChain{};
    const UrdfJointSpec& j = DofJoint(c.spec, c.independent, found);
    c.independent_dof.push_back(found);
    c.type.push_back(j.type);
    const bool bounded = j.type != "continuous" && j.has_limit;
    c.lower.push_back(bounded ? j.lower : -std::numeric_limits<double>::infinity());
    c.upper.push_back(bounded ? j.upper : std::numeric_limits<double>::infinity());
  }
  c.model = chain;
  return c;
}

/// The verdict of the independent FK on an IK answer.
struct StrictCheck {
  double position = std::numeric_limits<double>::infinity();  ///< m
  double rotation = std::numeric_limits<double>::infinity();  ///< rad
  int outside = -1;  ///< first DOF outside the URDF limits, or -1

  bool Pass() const {
    return position <= kStrictPosition && rotation <= kStrictRotation && outside < 0;
  }
};

inline StrictCheck CheckAgainstTarget(
    const TestChain& c, const Eigen::VectorXd& q, const Eigen::Isometry3d& target,
    const Eigen::Isometry3d& tool = Eigen::Isometry3d::Identity()) {
  StrictCheck check;
  if (q.size() != c.dof()) return check;
  const Eigen::Isometry3d tcp = c.Fk(q) * tool;
  check.position = (tcp.translation() - target.translation()).norm();
  check.rotation = std::abs(RotationDistance(tcp.linear(), target.linear()));
  check.outside = c.FirstOutside(q);
  return check;
}

inline std::vector<double> ToStd(const Eigen::VectorXd& q) {
  return std::vector<double>(q.data(), q.data() + q.size());
}

/// Options with a wall-time budget far beyond any solve here, so that the
/// iteration budget alone ends a search and the verdict cannot depend on how
/// loaded the test machine is.
inline motion::IkOptions IterationBoundOptions() {
  motion::IkOptions o;
  o.timeout = 10.0;
  return o;
}

/// The value of a rotary DOF reduced to (-pi, pi].
inline double WrapToPi(double a) {
  double r = std::remainder(a, 2 * kPi);
  if (r <= -kPi) r += 2 * kPi;
  return r;
}

inline bool HasDiagnostic(const motion::IkResult& r, motion::DiagnosticCode code,
                          motion::Severity severity) {
  for (const motion::Diagnostic& d : r.diagnostics) {
    if (d.code == code && d.severity == severity) return true;
  }
  return false;
}

}  // namespace motion_test
