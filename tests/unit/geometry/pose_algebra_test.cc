// Pose algebra against rotation matrices written out by hand (the test-side
// RotX/RotY/RotZ of independent_fk.h) and poses computed on paper.

#include "core/geometry/pose_algebra.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "independent_fk.h"

namespace motion {
namespace {

using motion_test::kPi;
using motion_test::RotationDistance;
using motion_test::RotX;
using motion_test::RotY;
using motion_test::RotZ;

Eigen::Matrix3d HandRpy(double roll, double pitch, double yaw) {
  return RotZ(yaw) * RotY(pitch) * RotX(roll);
}

// A pose and its 4x4 matrix, built without core.
struct HandPose {
  Eigen::Matrix3d r;
  Eigen::Vector3d p;
  Eigen::Matrix4d M() const {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = r;
    m.topRightCorner<3, 1>() = p;
    return m;
  }
  Pose ToPose() const {
    Pose out;
    out.position = p;
    out.orientation = Eigen::Quaterniond(r);
    return out;
  }
};

HandPose FromMatrix(const Eigen::Matrix4d& m) {
  return {m.topLeftCorner<3, 3>(), m.topRightCorner<3, 1>()};
}

HandPose RandomHandPose(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> angle(-kPi, kPi), pos(-2.0, 2.0);
  return {HandRpy(angle(rng), angle(rng) / 2, angle(rng)),
          Eigen::Vector3d(pos(rng), pos(rng), pos(rng))};
}

void ExpectPoseNear(const Pose& actual, const HandPose& expected, double tolerance) {
  EXPECT_LT((actual.position - expected.p).norm(), tolerance)
      << "position " << actual.position.transpose() << " expected " << expected.p.transpose();
  EXPECT_LT(RotationDistance(actual.orientation.toRotationMatrix(), expected.r), tolerance);
  EXPECT_NEAR(actual.orientation.norm(), 1.0, 1e-12);
}

// ---------------------------------------------------------------------- rpy

TEST(QuaternionFromRpyTest, MatchesHandBuiltRzRyRx) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> angle(-2 * kPi, 2 * kPi);
  for (int i = 0; i < 2000; ++i) {
    const double r = angle(rng), p = angle(rng), y = angle(rng);
    const Eigen::Quaterniond q = QuaternionFromRpy(r, p, y);
    EXPECT_NEAR(q.norm(), 1.0, 1e-14);
    EXPECT_LT((q.toRotationMatrix() - HandRpy(r, p, y)).norm(), 1e-14) << r << " " << p << " " << y;
  }
}

TEST(QuaternionFromRpyTest, SingleAxesAndOrder) {
  // Roll alone turns y into z; yaw alone turns x into y.
  EXPECT_LT((QuaternionFromRpy(kPi / 2, 0, 0) * Eigen::Vector3d::UnitY() - Eigen::Vector3d::UnitZ())
                .norm(),
            1e-15);
  EXPECT_LT((QuaternionFromRpy(0, 0, kPi / 2) * Eigen::Vector3d::UnitX() - Eigen::Vector3d::UnitY())
                .norm(),
            1e-15);
  // Fixed axes X then Z: x -> x (roll) -> y (yaw); not the other order.
  const Eigen::Vector3d v = QuaternionFromRpy(kPi / 2, 0, kPi / 2) * Eigen::Vector3d::UnitZ();
  // Rz(90) Rx(90) z = Rz(90) (-y) = +x.
  EXPECT_LT((v - Eigen::Vector3d::UnitX()).norm(), 1e-15) << v.transpose();
}

TEST(RpyFromQuaternionTest, RoundTripAwayFromGimbalLock) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> angle(-kPi * 0.999, kPi * 0.999);
  std::uniform_real_distribution<double> pitch(-kPi / 2 * 0.999, kPi / 2 * 0.999);
  for (int i = 0; i < 2000; ++i) {
    const double r = angle(rng), p = pitch(rng), y = angle(rng);
    const Eigen::Vector3d rpy = RpyFromQuaternion(Eigen::Quaterniond(HandRpy(r, p, y)));
    EXPECT_NEAR(rpy.x(), r, 1e-9);
    EXPECT_NEAR(rpy.y(), p, 1e-9);
    EXPECT_NEAR(rpy.z(), y, 1e-9);
  }
}

TEST(RpyFromQuaternionTest, PitchPlusMinusHalfPi) {
  // Rz(y) Ry(pi/2) Rx(r) = Rz(y - r) Ry(pi/2) and
  // Rz(y) Ry(-pi/2) Rx(r) = Rz(y + r) Ry(-pi/2) (worked out on the 3x3
  // matrices): with roll reported as 0, yaw carries y -+ r.
  const double r = 0.3, y = 0.5;
  {
    const Eigen::Matrix3d m = HandRpy(r, kPi / 2, y);
    const Eigen::Vector3d rpy = RpyFromQuaternion(Eigen::Quaterniond(m));
    EXPECT_EQ(rpy.x(), 0.0);
    EXPECT_NEAR(rpy.y(), kPi / 2, 1e-12);
    EXPECT_NEAR(rpy.z(), y - r, 1e-12);
    EXPECT_LT(RotationDistance(HandRpy(rpy.x(), rpy.y(), rpy.z()), m), 1e-12);
  }
  {
    const Eigen::Matrix3d m = HandRpy(r, -kPi / 2, y);
    const Eigen::Vector3d rpy = RpyFromQuaternion(Eigen::Quaterniond(m));
    EXPECT_EQ(rpy.x(), 0.0);
    EXPECT_NEAR(rpy.y(), -kPi / 2, 1e-12);
    EXPECT_NEAR(rpy.z(), y + r, 1e-12);
    EXPECT_LT(RotationDistance(HandRpy(rpy.x(), rpy.y(), rpy.z()), m), 1e-12);
  }
  // Through QuaternionFromRpy as well.
  for (double p : {kPi / 2, -kPi / 2}) {
    const Eigen::Quaterniond q = QuaternionFromRpy(r, p, y);
    const Eigen::Vector3d rpy = RpyFromQuaternion(q);
    EXPECT_NEAR(rpy.y(), p, 1e-12);
    EXPECT_LT(RotationDistance(HandRpy(rpy.x(), rpy.y(), rpy.z()), q.toRotationMatrix()), 1e-12);
  }
}

TEST(RpyFromQuaternionTest, NearGimbalLockTheRotationSurvivesTheRoundTrip) {
  // Just next to pitch = +-pi/2 roll and yaw are ill-conditioned one by one,
  // but whatever split comes back must rebuild the same rotation. sqrt(eps)
  // ~ 1.5e-8 rad is what a well-chosen gimbal threshold achieves; 1e-7 is a
  // loose bound.
  const double r = 0.3, y = 0.5;
  for (double sign : {1.0, -1.0}) {
    for (double off : {0.0, 1e-14, 1e-12, 1e-10, 1e-9, 1e-8, 1e-6}) {
      const double p = sign * (kPi / 2 - off);
      const Eigen::Quaterniond q = QuaternionFromRpy(r, p, y);
      const Eigen::Vector3d rpy = RpyFromQuaternion(q);
      EXPECT_LE(std::abs(rpy.y()), kPi / 2);
      EXPECT_NEAR(rpy.y(), p, 1e-6);
      EXPECT_LT(RotationDistance(HandRpy(rpy.x(), rpy.y(), rpy.z()), q.toRotationMatrix()), 1e-7)
          << "pitch = " << sign << " * (pi/2 - " << off << ")";
    }
  }
}

// ------------------------------------------------------- Compose / Inverse

TEST(ComposeTest, MatchesMatrixProductAndIdentities) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500; ++i) {
    const HandPose a = RandomHandPose(rng), b = RandomHandPose(rng), c = RandomHandPose(rng);
    const Pose pa = a.ToPose(), pb = b.ToPose(), pc = c.ToPose();
    ExpectPoseNear(Compose(pa, pb), FromMatrix(a.M() * b.M()), 1e-13);
    ExpectPoseNear(Inverse(pa), FromMatrix(a.M().inverse()), 1e-13);
    const HandPose identity{Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero()};
    ExpectPoseNear(Compose(pa, Inverse(pa)), identity, 1e-13);
    ExpectPoseNear(Compose(Inverse(pa), pa), identity, 1e-13);
    ExpectPoseNear(Compose(pa, Pose::Identity()), a, 1e-13);
    ExpectPoseNear(Compose(Pose::Identity(), pa), a, 1e-13);
    ExpectPoseNear(Compose(Compose(pa, pb), pc), FromMatrix(a.M() * b.M() * c.M()), 1e-12);
    ExpectPoseNear(Compose(pa, Compose(pb, pc)), FromMatrix(a.M() * b.M() * c.M()), 1e-12);
    // (A B)^-1 = B^-1 A^-1
    ExpectPoseNear(Inverse(Compose(pa, pb)), FromMatrix(b.M().inverse() * a.M().inverse()), 1e-12);
  }
}

TEST(ComposeTest, WorkedExample) {
  // A: 1 m along x, turned 90 deg about z. B: 0.5 m along B's parent x.
  // A * B puts B's origin at (1, 0.5, 0): A's x axis is the world y.
  Pose a;
  a.position = Eigen::Vector3d(1, 0, 0);
  a.orientation = Eigen::Quaterniond(RotZ(kPi / 2));
  Pose b;
  b.position = Eigen::Vector3d(0.5, 0, 0);
  const Pose ab = Compose(a, b);
  EXPECT_LT((ab.position - Eigen::Vector3d(1, 0.5, 0)).norm(), 1e-15);
  const Pose ai = Inverse(a);
  // A^-1: the world origin seen from A is at (0, 1, 0) in A's axes.
  EXPECT_LT((ai.position - Eigen::Vector3d(0, 1, 0)).norm(), 1e-15);
  EXPECT_LT(RotationDistance(ai.orientation.toRotationMatrix(), RotZ(-kPi / 2)), 1e-15);
}

// ------------------------------------------------------------ ResolveTarget

// A work-object frame 1 m along world x, turned 90 deg about z, and a target
// 0.1 m along that frame's x with the tool pointing down (Rx(pi)). The target
// in the base frame is then at (1, 0.1, 0) with R = Rz(90) Rx(180), whose z
// axis is world -z.
struct Scene {
  Pose frame, target;
  Scene() {
    frame.position = Eigen::Vector3d(1, 0, 0);
    frame.orientation = Eigen::Quaterniond(RotZ(kPi / 2));
    target.position = Eigen::Vector3d(0.1, 0, 0);
    target.orientation = Eigen::Quaterniond(RotX(kPi));
  }
  Eigen::Matrix3d target_rotation() const { return RotZ(kPi / 2) * RotX(kPi); }
};

Pose Translation(double x, double y, double z) {
  Pose p;
  p.position = Eigen::Vector3d(x, y, z);
  return p;
}

TEST(ResolveTargetTest, NoOffsetIsFrameTimesTarget) {
  const Scene s;
  for (OffsetFrame mode : {OffsetFrame::kWorld, OffsetFrame::kFrame, OffsetFrame::kTool}) {
    ExpectPoseNear(ResolveTarget(s.target, s.frame, Pose::Identity(), mode),
                   {s.target_rotation(), Eigen::Vector3d(1, 0.1, 0)}, 1e-15);
  }
}

TEST(ResolveTargetTest, WorldOffsetZ100mmIsWorldPlusZ) {
  // GRL `pick offset z 100 mm`: 0.1 m up in the base frame, whatever the
  // target's or the frame's orientation; the orientation is unchanged.
  const Scene s;
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0, 0, 0.1), OffsetFrame::kWorld),
                 {s.target_rotation(), Eigen::Vector3d(1, 0.1, 0.1)}, 1e-15);
  // x in world is world x, not the frame's x (which is world y).
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0.2, 0, 0), OffsetFrame::kWorld),
                 {s.target_rotation(), Eigen::Vector3d(1.2, 0.1, 0)}, 1e-15);
}

TEST(ResolveTargetTest, ToolOffsetZMinus50mmIsAlongTheTargetsOwnZ) {
  // GRL `offset_in tool z -50 mm`: along the target's z, which points down,
  // so -50 mm along it is 0.05 m *up* in the world.
  const Scene s;
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0, 0, -0.05), OffsetFrame::kTool),
                 {s.target_rotation(), Eigen::Vector3d(1, 0.1, 0.05)}, 1e-15);
  // The target's x is Rz(90) Rx(180) x = world y.
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0.02, 0, 0), OffsetFrame::kTool),
                 {s.target_rotation(), Eigen::Vector3d(1, 0.12, 0)}, 1e-15);
}

TEST(ResolveTargetTest, FrameOffsetIsAlongTheWorkObjectAxes) {
  // The frame's z is world z (-0.05 m down); the frame's x is world y.
  const Scene s;
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0, 0, -0.05), OffsetFrame::kFrame),
                 {s.target_rotation(), Eigen::Vector3d(1, 0.1, -0.05)}, 1e-15);
  ExpectPoseNear(ResolveTarget(s.target, s.frame, Translation(0.02, 0, 0), OffsetFrame::kFrame),
                 {s.target_rotation(), Eigen::Vector3d(1, 0.12, 0)}, 1e-15);
}

TEST(ResolveTargetTest, RotatedOffsetsAgainstMatrices) {
  // General case, with the formulas of the three modes written as 4x4
  // products: tool F T O; frame F [O.p + T.p, O.R T.R]; world
  // [O.p + (F T).p, O.R (F T).R].
  std::mt19937_64 rng(6);
  for (int i = 0; i < 300; ++i) {
    const HandPose f = RandomHandPose(rng), t = RandomHandPose(rng), o = RandomHandPose(rng);
    const Pose pf = f.ToPose(), pt = t.ToPose(), po = o.ToPose();
    ExpectPoseNear(ResolveTarget(pt, pf, po, OffsetFrame::kTool), FromMatrix(f.M() * t.M() * o.M()),
                   1e-12);
    const HandPose moved_in_frame{o.r * t.r, o.p + t.p};
    ExpectPoseNear(ResolveTarget(pt, pf, po, OffsetFrame::kFrame),
                   FromMatrix(f.M() * moved_in_frame.M()), 1e-12);
    const HandPose ft = FromMatrix(f.M() * t.M());
    ExpectPoseNear(ResolveTarget(pt, pf, po, OffsetFrame::kWorld), {o.r * ft.r, o.p + ft.p}, 1e-12);
  }
}

}  // namespace
}  // namespace motion
