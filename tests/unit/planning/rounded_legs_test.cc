// A MoveJ's planned legs on one rounded curve (PlanRoundedLegs), on the
// planar arm (two capsules). The corner turns joint 1 back: overlapping the
// two legs in time adds their accelerations there and can only overlap their
// ends a little (RoundPlannedCorner, the contrast); the curve rounds it
// without stopping and is faster than both. Judged by the test's
// own numbers: divided differences of the sampled positions against the
// limits, no interior sample at rest, ends exactly at the waypoints, faster
// than the legs with a stop, and, with a post standing where the full
// rounding passes (but neither leg), clear by a dense check of every sample
// and 20 points inside every interval.

#include "core/motion/internal/rounded_legs.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/ik/ik_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/checked_blend.h"
#include "core/motion/internal/move_j.h"
#include "planning_test_support.h"

namespace motion {
namespace {

constexpr double kDt = 0.004;  // PlanarContext's sample time
constexpr double kVelocity = 1.0, kAcceleration = 4.0, kJerk = 40.0;

using motion_test::Vec;

struct Corner {
  motion_test::CollisionRobot robot = motion_test::LoadCollisionRobot(motion_test::kPlanarArm);
  IkData data{*robot.chain};
  std::vector<JointLimits> limits;
  Trajectory out;
  SegmentReport report;
  RoundedLegs rounded;
  std::vector<Eigen::VectorXd> waypoints;

  explicit Corner(std::vector<Eigen::VectorXd> points) : waypoints(std::move(points)) {
    for (const auto& l : robot.chain->dof_limits) {
      JointLimits j = l;
      j.max_velocity = kVelocity;
      j.max_acceleration = kAcceleration;
      j.max_jerk = kJerk;
      limits.push_back(j);
    }
    out.dof = robot.chain->dof();
  }

  SegmentContext Context(const CollisionScene& scene) {
    return motion_test::PlanarContext(robot, data, limits, waypoints.front(), out, scene);
  }

  MotionSegment Segment() const {
    MotionSegment segment;
    segment.kind = MotionKind::kMoveJ;
    segment.speed.joint_fraction = 1.0;
    return segment;
  }

  void Round(const CollisionScene& scene) {
    out = Trajectory{};
    out.dof = robot.chain->dof();
    SegmentContext context = Context(scene);
    Eigen::VectorXd end;
    report = SegmentReport{};
    const absl::Status status =
        PlanRoundedLegs(Segment(), context, waypoints, report, end, rounded);
    ASSERT_TRUE(status.ok()) << status;
  }

  // The legs with a stop at the corner, with `overlap` then overlapped in
  // time as far as the limits allow (RoundPlannedCorner): their cycle time.
  double Legs(const CollisionScene& scene, bool overlap) {
    out = Trajectory{};
    out.dof = robot.chain->dof();
    SegmentContext context = Context(scene);
    SegmentReport before, after;
    Eigen::VectorXd end;
    EXPECT_TRUE(
        PlanStraightMoveJ(Segment(), context, waypoints[0], waypoints[1], before, end).ok());
    context.start_time += before.duration;
    context.start = waypoints[1];
    EXPECT_TRUE(PlanStraightMoveJ(Segment(), context, waypoints[1], waypoints[2], after, end).ok());
    if (overlap) {
      EXPECT_TRUE(RoundPlannedCorner(context, Pose{}, before, after).blended);
    }
    return out.time.back();
  }

  // Interior samples at rest (every joint's divided-difference speed ~0).
  int Rests() const {
    int rests = 0;
    for (std::size_t k = 1; k + 1 < out.size(); ++k) {
      const double moved = (out.Position(k + 1) - out.Position(k - 1)).cwiseAbs().maxCoeff();
      rests += moved < 1e-9;
    }
    return rests;
  }
};

// Velocity, acceleration and jerk of every joint by divided differences of
// the positions (at rest before the first sample and after the last),
// against the limits.
void ExpectWithinLimits(const Trajectory& t) {
  const int dof = t.dof;
  std::vector<double> q = t.positions;
  for (int pad = 0; pad < 3; ++pad) {  // at rest beyond both ends
    q.insert(q.begin(), q.begin(), q.begin() + dof);
    q.insert(q.end(), q.end() - dof, q.end());
  }
  const std::size_t n = q.size() / dof;
  double v = 0, a = 0, j = 0;
  for (std::size_t k = 0; k + 3 < n; ++k) {
    for (int i = 0; i < dof; ++i) {
      auto at = [&](std::size_t m) { return q[m * dof + i]; };
      v = std::max(v, std::abs(at(k + 1) - at(k)) / kDt);
      a = std::max(a, std::abs(at(k + 2) - 2 * at(k + 1) + at(k)) / (kDt * kDt));
      j = std::max(j,
                   std::abs(at(k + 3) - 3 * at(k + 2) + 3 * at(k + 1) - at(k)) / (kDt * kDt * kDt));
    }
  }
  EXPECT_LE(v, kVelocity * (1 + 1e-6));
  EXPECT_LE(a, kAcceleration * (1 + 1e-6));
  EXPECT_LE(j, kJerk * (1 + 1e-6));
  for (std::size_t k = 1; k < t.size(); ++k) {
    EXPECT_NEAR(t.time[k] - t.time[k - 1], kDt, 1e-12);
  }
}

// Joint 1 turns 0.8 rad, then back 0.3 rad while the elbow opens 1 rad.
const std::vector<Eigen::VectorXd> kTurnBack = {Vec({-1.0, -2.0}), Vec({-0.2, -2.0}),
                                                Vec({-0.5, -1.0})};
// Joint 1 turns, then the elbow opens: inside a rounded corner the tool
// passes well away from where either leg takes any part of the arm.
const std::vector<Eigen::VectorXd> kRightAngle = {Vec({-1.0, -2.0}), Vec({1.5, -2.0}),
                                                  Vec({1.5, 0.5})};

TEST(RoundedLegsTest, ACornerWhereAJointTurnsBackIsRoundedWithoutStopping) {
  const auto empty = motion_test::Scene({});
  Corner legs(kTurnBack);
  const double stopped = legs.Legs(*empty, false);
  const double overlapped = legs.Legs(*empty, true);

  Corner corner(kTurnBack);
  corner.Round(*empty);
  ASSERT_TRUE(corner.rounded.planned);
  EXPECT_EQ(corner.rounded.rounded_corners, 1);
  EXPECT_TRUE(corner.report.ok);
  EXPECT_EQ(corner.Rests(), 0) << "the arm never stops at the corner";
  EXPECT_TRUE(corner.out.Position(0) == corner.waypoints.front());
  EXPECT_TRUE(corner.out.Position(corner.out.size() - 1) == corner.waypoints.back());
  ExpectWithinLimits(corner.out);
  // Faster than a stop, and than the legs overlapped in time (which can
  // only overlap their ends a little: joint 1 brakes and speeds up in the
  // same direction there).
  EXPECT_LT(corner.out.time.back(), stopped - 0.3);
  EXPECT_LT(corner.out.time.back(), overlapped - 0.2);
  // Joint 1 does turn back, short of the corner by at most the rounding's
  // depth: 0.1875 r |u_out - u_in|, r = 0.45 of the shorter leg.
  double highest = -10;
  for (std::size_t k = 0; k < corner.out.size(); ++k) {
    highest = std::max(highest, corner.out.Position(k)[0]);
  }
  const Eigen::VectorXd u_in = (kTurnBack[1] - kTurnBack[0]).normalized();
  const Eigen::VectorXd u_out = (kTurnBack[2] - kTurnBack[1]).normalized();
  EXPECT_GT(highest, -0.2 - 0.1875 * 0.45 * 0.8 * (u_out - u_in).norm());
  EXPECT_LT(highest, -0.2);
  EXPECT_NEAR(corner.report.duration, corner.out.time.back(), 1e-12);
  EXPECT_EQ(corner.report.point_count, static_cast<std::int64_t>(corner.out.size()));
}

// A post where the full rounding's tool passes farthest from both legs.
TEST(RoundedLegsTest, ARoundingThatWouldHitAPostRoundsLessAndStaysClear) {
  const auto empty = motion_test::Scene({});
  Corner free(kRightAngle);
  free.Round(*empty);
  ASSERT_TRUE(free.rounded.planned);
  ChainData fk(*free.robot.chain);
  auto distance_to_leg = [&](const Eigen::Vector3d& p, const Eigen::VectorXd& a,
                             const Eigen::VectorXd& b) {
    const std::vector<double> dense = motion_test::DenseSamples(a, b, 1e-3);
    double d = 1e9;
    for (std::size_t k = 0; k * 2 < dense.size(); ++k) {
      const Eigen::Vector3d tool =
          ForwardKinematics(*free.robot.chain, fk,
                            Eigen::Map<const Eigen::VectorXd>(dense.data() + 2 * k, 2))
              .translation();
      d = std::min(d, (tool - p).norm());
    }
    return d;
  };
  Eigen::Vector3d post = Eigen::Vector3d::Zero();
  double stand_off = 0;
  for (std::size_t k = 0; k < free.out.size(); k += 5) {
    const Eigen::Vector3d p =
        ForwardKinematics(*free.robot.chain, fk, free.out.Position(k)).translation();
    const double d = std::min(distance_to_leg(p, free.waypoints[0], free.waypoints[1]),
                              distance_to_leg(p, free.waypoints[1], free.waypoints[2]));
    if (d > stand_off) stand_off = d, post = p;
  }
  ASSERT_GT(stand_off, motion_test::kCapsuleRadius + 0.03) << "the rounding leaves the legs";
  const auto scene = motion_test::Scene({{"post", post, Eigen::Vector3d(0.02, 0.02, 0.2)}});
  for (std::size_t l = 0; l + 1 < free.waypoints.size(); ++l) {
    ASSERT_TRUE(motion_test::ContactsAlong(
                    free.robot, *scene,
                    motion_test::DenseSamples(free.waypoints[l], free.waypoints[l + 1], 1e-3), {})
                    .empty())
        << "neither leg touches the post";
  }
  EXPECT_FALSE(motion_test::ContactsAlong(free.robot, *scene, free.out.positions, {}).empty())
      << "the full rounding would";

  Corner blocked(kRightAngle);
  blocked.Round(*scene);
  ASSERT_TRUE(blocked.rounded.planned);
  EXPECT_TRUE(blocked.report.ok);
  EXPECT_GT(blocked.out.time.back(), free.out.time.back());
  EXPECT_EQ(blocked.Rests(), 1 - blocked.rounded.rounded_corners);
  ExpectWithinLimits(blocked.out);
  // Dense: every sample and 20 points inside every interval, pose by pose.
  ChainData data(*blocked.robot.chain);
  int hits = 0;
  for (std::size_t k = 0; k + 1 < blocked.out.size(); ++k) {
    for (int i = 0; i < 20; ++i) {
      const Eigen::VectorXd q =
          blocked.out.Position(k) +
          (i / 20.0) * (blocked.out.Position(k + 1) - blocked.out.Position(k));
      CollisionQuery query;
      query.self_collision = false;
      hits +=
          !CheckCollision(*blocked.robot.chain, data, *blocked.robot.collision, *scene, q, query)
               .contacts.empty();
    }
  }
  EXPECT_EQ(hits, 0);
}

}  // namespace
}  // namespace motion

namespace motion {
namespace {

// A repeated waypoint (a leg of no length) has no direction to round from:
// nothing is appended and the caller keeps the legs.
TEST(RoundedLegsTest, ALegOfNoLengthLeavesItToTheLegs) {
  const auto empty = motion_test::Scene({});
  Corner repeated({Vec({-1.0, -2.0}), Vec({-0.2, -2.0}), Vec({-0.2, -2.0}), Vec({-0.5, -1.0})});
  repeated.Round(*empty);
  EXPECT_FALSE(repeated.rounded.planned);
  EXPECT_EQ(repeated.out.size(), 0u);
}

}  // namespace
}  // namespace motion
