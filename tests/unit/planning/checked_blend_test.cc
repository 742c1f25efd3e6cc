// Blends checked for collisions (the corners of a MoveJ planned around
// obstacles, and the zones next to one), on the planar arm (two capsules):
// two legs at right angles in joint space (joint 1, then joint 2), first
// with no obstacle (the blend cuts the corner and the arm never stops), then
// with a small post where the tool passes farthest inside that blend but
// where neither leg goes (checked densely by the test). The blend that would
// hit it is undone: the corner is a smaller blend or a stop, the test's own
// dense check of every sample and between samples finds the result clear,
// and outside the kept blend the samples are the legs' own.

#include "core/motion/internal/checked_blend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "core/ik/ik_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/move_j.h"
#include "planning_test_support.h"

namespace motion {
namespace {

using motion_test::Vec;

// Distance from p to the arm's link segments (base -> elbow -> tool, 0.5
// and 0.4 m) over the straight joint motion a -> b, sampled every 1 mrad.
double DistanceToLeg(const Eigen::Vector3d& p, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  auto to_segment = [&](const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
    const Eigen::Vector2d q = p.head<2>();
    const double s = std::clamp((q - u).dot(v - u) / (v - u).squaredNorm(), 0.0, 1.0);
    return (u + s * (v - u) - q).norm();
  };
  double d = std::numeric_limits<double>::infinity();
  const int steps = static_cast<int>(std::ceil((b - a).cwiseAbs().maxCoeff() / 1e-3));
  for (int k = 0; k <= steps; ++k) {
    const Eigen::VectorXd q = a + (b - a) * (static_cast<double>(k) / steps);
    const Eigen::Vector2d elbow(0.5 * std::cos(q[0]), 0.5 * std::sin(q[0]));
    const Eigen::Vector2d tip =
        elbow + 0.4 * Eigen::Vector2d(std::cos(q[0] + q[1]), std::sin(q[0] + q[1]));
    d = std::min({d, to_segment(Eigen::Vector2d::Zero(), elbow), to_segment(elbow, tip)});
  }
  return d;
}

struct Legs {
  motion_test::CollisionRobot robot = motion_test::LoadCollisionRobot(motion_test::kPlanarArm);
  IkData data{*robot.chain};
  std::vector<JointLimits> limits;
  Trajectory out;
  SegmentReport before, after;
  CheckedBlend rounding;

  enum class Blend { kNone, kPlannedCorner, kZone };

  // Samples q0 -> corner -> q1 as two straight legs, then rounds the corner
  // against `scene`: as a planner's corner, or by `zone` as a program's.
  void Plan(const CollisionScene& scene, Blend blend = Blend::kPlannedCorner, ZoneSpec zone = {}) {
    for (const auto& l : robot.chain->dof_limits) {
      JointLimits j = l;
      j.max_velocity = 1.0;
      j.max_acceleration = 4.0;
      j.max_jerk = 40.0;
      limits.push_back(j);
    }
    out = Trajectory{};
    out.dof = robot.chain->dof();
    SegmentContext context = motion_test::PlanarContext(robot, data, limits, q0, out, scene);
    MotionSegment leg;
    leg.kind = MotionKind::kMoveJ;
    leg.speed.joint_fraction = 1.0;
    Eigen::VectorXd end;
    before = SegmentReport{};
    after = SegmentReport{};
    const absl::Status first = PlanStraightMoveJ(leg, context, q0, corner, before, end);
    ASSERT_TRUE(first.ok()) << first;
    context.start_time += before.duration;
    context.start = corner;
    ASSERT_TRUE(PlanStraightMoveJ(leg, context, corner, q1, after, end).ok());
    if (blend == Blend::kPlannedCorner) {
      rounding = RoundPlannedCorner(context, Pose{}, before, after);
    } else if (blend == Blend::kZone) {
      const BlendSetting setting{*robot.chain, data.kinematics,   limits, ProfileKind::kJerkLimited,
                                 0.004,        context.collision, {}};
      rounding = BlendCornerCollisionFree(setting, zone, Pose{}, out, before, after);
    }
  }

  // Tool position at sample k.
  Eigen::Vector3d Tool(std::size_t k) {
    return ForwardKinematics(*robot.chain, data.kinematics, out.Position(k)).translation();
  }

  // Joint 1 turns with the elbow folded, then the elbow opens: inside the
  // corner the tool passes up to 11 cm from where either leg takes any part of
  // the arm (by the test's own planar geometry).
  const Eigen::VectorXd q0 = Vec({-1.0, -2.0});
  const Eigen::VectorXd corner = Vec({0.5, -2.0});
  const Eigen::VectorXd q1 = Vec({0.5, 0.0});
};

// A 2 cm post where the tool of `legs`' rounded corner passes farthest
// from both legs; the test checks that neither leg comes near it.
std::shared_ptr<const CollisionScene> PostInsideTheCorner(Legs& legs) {
  // The blended sample whose tool is farthest from every part of the arm
  // along either leg (the test's own planar geometry: links as segments).
  const long n = std::lround(legs.rounding.time_saved / 0.004);
  const long corner_index = static_cast<long>(legs.after.first_index) - 1;
  Eigen::Vector3d tool = Eigen::Vector3d::Zero();
  double stand_off = 0.0;
  for (long k = corner_index - n; k <= corner_index; ++k) {
    const Eigen::Vector3d p = legs.Tool(static_cast<std::size_t>(k));
    const double d =
        std::min(DistanceToLeg(p, legs.q0, legs.corner), DistanceToLeg(p, legs.corner, legs.q1));
    if (d > stand_off) {
      stand_off = d;
      tool = p;
    }
  }
  EXPECT_GT(stand_off, motion_test::kCapsuleRadius + 0.02);
  // A 2 cm box there; the test checks that neither leg comes near it.
  auto scene = motion_test::Scene({{"post", tool, Eigen::Vector3d(0.02, 0.02, 0.2)}});
  for (const auto& [a, b] : {std::pair{legs.q0, legs.corner}, std::pair{legs.corner, legs.q1}}) {
    EXPECT_TRUE(
        motion_test::ContactsAlong(legs.robot, *scene, motion_test::DenseSamples(a, b, 1e-3), {})
            .empty())
        << "the post must stand off both legs";
  }
  return scene;
}

TEST(CheckedBlendTest, AClearBlendIsKeptAndABlockedOneIsUndone) {
  Legs free;
  free.Plan(*motion_test::Scene({}));
  ASSERT_TRUE(free.rounding.blended);
  EXPECT_GT(free.rounding.time_saved, 0.1);
  EXPECT_NEAR(free.out.time.back(), free.before.duration + free.after.duration, 1e-9);
  const auto scene = PostInsideTheCorner(free);
  Legs blocked;
  blocked.Plan(*scene);
  EXPECT_LT(blocked.rounding.time_saved, free.rounding.time_saved);
  EXPECT_TRUE(motion_test::ContactsAlong(blocked.robot, *scene, blocked.out.positions, {}).empty());
  // And the free blend, had it been kept, would have hit the post.
  EXPECT_FALSE(motion_test::ContactsAlong(free.robot, *scene, free.out.positions, {}).empty());
  // Dense: 20 points inside every interval of the kept trajectory.
  std::vector<double> dense;
  for (std::size_t k = 0; k + 1 < blocked.out.size(); ++k) {
    for (int i = 0; i < 20; ++i) {
      const Eigen::VectorXd q =
          blocked.out.Position(k) +
          (i / 20.0) * (blocked.out.Position(k + 1) - blocked.out.Position(k));
      dense.insert(dense.end(), q.data(), q.data() + q.size());
    }
  }
  motion::ChainData data(*blocked.robot.chain);
  int hits = 0;
  for (std::size_t k = 0; k * 2 < dense.size(); ++k) {
    CollisionQuery query;
    query.self_collision = false;
    hits += !CheckCollision(*blocked.robot.chain, data, *blocked.robot.collision, *scene,
                            Eigen::Map<const Eigen::VectorXd>(dense.data() + 2 * k, 2), query)
                 .contacts.empty();
  }
  EXPECT_EQ(hits, 0);
}

// A program's zone next to a planned-around MoveJ: the same check, with the
// zone's own report kept. The full blend hits the post and is undone (the
// contact names it); a smaller clear one is kept, and outside it the
// trajectory is the two legs sample for sample, as planned with a stop
// (before the blend the same samples, after it the same n samples later):
// nothing of the undone blend is left.
TEST(CheckedBlendTest, AZonesBlendIsUndoneWhenItHitsAndASmallerClearOneKept) {
  Legs free;
  free.Plan(*motion_test::Scene({}));
  const auto scene = PostInsideTheCorner(free);
  ZoneSpec zone;
  zone.kind = ZoneKind::kCnt;
  zone.percent = 100;
  Legs zoned;
  zoned.Plan(*scene, Legs::Blend::kZone, zone);
  EXPECT_TRUE(zoned.rounding.collided);
  EXPECT_EQ(zoned.rounding.contact.other, "post");
  ASSERT_TRUE(zoned.rounding.blended);
  ASSERT_TRUE(zoned.before.blend.blended);
  EXPECT_LT(zoned.rounding.time_saved, free.rounding.time_saved);
  EXPECT_TRUE(motion_test::ContactsAlong(zoned.robot, *scene, zoned.out.positions, {}).empty());

  Legs stopped;
  stopped.Plan(*scene, Legs::Blend::kNone);
  const long n = std::lround(zoned.rounding.time_saved / 0.004);
  ASSERT_EQ(zoned.out.size() + n, stopped.out.size());
  EXPECT_NEAR(zoned.out.time.back(), stopped.out.time.back() - zoned.rounding.time_saved, 1e-9);
  const long begin = zoned.before.blend.start_index, end = zoned.before.blend.end_index;
  for (long k = 0; k < static_cast<long>(zoned.out.size()); ++k) {
    if (k >= begin && k <= end) continue;
    const long same = k < begin ? k : k + n;
    EXPECT_TRUE(zoned.out.Position(k) == stopped.out.Position(same)) << k;
  }
}

}  // namespace
}  // namespace motion
