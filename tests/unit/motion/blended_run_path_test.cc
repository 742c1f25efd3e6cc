// BlendedRunPath, the TCP path of a run of blended MoveL/MoveC motions,
// judged by finite differences of its own poses and by distances built
// here: it starts and ends on the programmed targets, runs on the
// programmed lines outside its blends, keeps the TCP's cruise speed through
// every blend, is smooth where a blend meets a line, and stays inside its
// zone.

#include "core/motion/internal/blended_run_path.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace motion {
namespace {

constexpr double kPi = 3.14159265358979323846;

SpeedSpec Speed(double v = 0.25, double w = 1.0) {
  SpeedSpec s;
  s.linear_velocity = v;
  s.linear_acceleration = 2.0;
  s.linear_jerk = 10.0;
  s.angular_velocity = w;
  s.angular_acceleration = 4.0;
  s.angular_jerk = 40.0;
  return s;
}

MotionSegment Line(const Pose& target) {
  MotionSegment m;
  m.kind = MotionKind::kMoveL;
  m.target = target;
  return m;
}

Pose At(const Eigen::Vector3d& p, const Eigen::Quaterniond& q = Eigen::Quaterniond::Identity()) {
  Pose pose;
  pose.position = p;
  pose.orientation = q;
  return pose;
}

ZoneSpec Distance(double r) { return ZoneSpec{ZoneKind::kDistance, r, 0.0}; }

// Two lines from `start`: `first` then a turn by `angle` in the xy-plane,
// `second` long.
BlendedRunPath Corner(double angle, double first, double second, double zone,
                      const SpeedSpec& speed = Speed()) {
  const Pose start = At(Eigen::Vector3d(0.4, -0.1, 0.3));
  const Pose corner = At(start.position + Eigen::Vector3d(first, 0, 0));
  const Pose end =
      At(corner.position + second * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0));
  std::vector<SegmentPath> motions{LinePath(Line(corner), start), LinePath(Line(end), corner)};
  return BlendedRunPath(motions, speed, {Distance(zone)});
}

double DistanceToSegment(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                         const Eigen::Vector3d& b) {
  const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (p - (a + t * (b - a))).norm();
}

// |dp/dsigma| by central differences of At.
double SpeedAt(const BlendedRunPath& path, double sigma, double h = 1e-6) {
  return (path.At(sigma + h).position - path.At(sigma - h).position).norm() / (2 * h);
}

TEST(BlendedRunPathTest, KeepsTheCruiseSpeedThroughCornersOfEveryAngle) {
  for (double degrees : {10.0, 45.0, 90.0, 119.0}) {
    SCOPED_TRACE(degrees);
    const BlendedRunPath path = Corner(degrees * kPi / 180, 0.12, 0.1, 0.015);
    // Sigma is cruise time: the TCP moves v T per unit sigma everywhere (the
    // extent's length is that over the run's speed margin).
    const double cruise = path.Extent().length * kRunTcpVelocityMargin;
    for (int i = 1; i < 2000; ++i) {
      const double sigma = i / 2000.0;
      ASSERT_NEAR(SpeedAt(path, sigma), cruise, 1e-5 * cruise) << "sigma " << sigma;
      ASSERT_NEAR(path.Rates(sigma).linear[0], cruise, 1e-5 * cruise) << "sigma " << sigma;
    }
  }
}

TEST(BlendedRunPathTest, KeepsTheCruiseSpeedIntoAndOutOfAnArc) {
  // A line into a quarter circle of radius 0.05 m that bends away from it
  // (the arc's tangent turns by 0.3 rad across the blend: the speed-keeping
  // factor is corrected against it), and the arc into a line.
  const Pose start = At(Eigen::Vector3d(0.4, -0.1, 0.3));
  const Pose corner = At(start.position + Eigen::Vector3d(0.1, 0, 0));
  MotionSegment arc;
  arc.kind = MotionKind::kMoveC;
  const double r = 0.05;
  // Centre at corner + (0, r): starts along +y (a 90 degree corner).
  arc.via =
      At(corner.position + Eigen::Vector3d(-r + r * std::cos(kPi / 4), r * std::sin(kPi / 4), 0));
  arc.target = At(corner.position + Eigen::Vector3d(-r, r, 0));
  absl::StatusOr<SegmentPath> circle = ArcPath(arc, corner);
  ASSERT_TRUE(circle.ok()) << circle.status();
  const Pose end = At(arc.target.position + Eigen::Vector3d(-0.1, 0, 0));
  std::vector<SegmentPath> motions{LinePath(Line(corner), start), *circle,
                                   LinePath(Line(end), arc.target)};
  const BlendedRunPath path(motions, Speed(), {Distance(0.015), Distance(0.015)});
  const double cruise = path.Extent().length * kRunTcpVelocityMargin;
  double worst = 0.0;
  for (int i = 1; i < 4000; ++i) {
    const double sigma = i / 4000.0;
    worst = std::max(worst, std::abs(SpeedAt(path, sigma) / cruise - 1));
    ASSERT_NEAR(path.Rates(sigma).linear[0], SpeedAt(path, sigma), 1e-5 * cruise);
  }
  EXPECT_LT(worst, 1e-5);
}

TEST(BlendedRunPathTest, RunsOnTheLinesOutsideItsBlendAndInsideTheZoneWithin) {
  const double zone = 0.02;
  for (double degrees : {30.0, 90.0, 115.0}) {
    SCOPED_TRACE(degrees);
    const double angle = degrees * kPi / 180;
    const BlendedRunPath path = Corner(angle, 0.15, 0.12, zone);
    const Eigen::Vector3d a = path.At(0.0).position, c = path.motion(0).end.position;
    const Eigen::Vector3d b = path.At(1.0).position;
    EXPECT_NEAR((b - c).norm(), 0.12, 1e-12);
    EXPECT_LE(path.LeaveDistance(0), zone + 1e-12);
    EXPECT_LE(path.JoinDistance(0), zone + 1e-12);
    // The larger of the two is the zone itself (lines at equal speeds: both).
    EXPECT_NEAR(std::max(path.LeaveDistance(0), path.JoinDistance(0)), zone, 1e-9);
    EXPECT_FALSE(path.Reduced(0));
    double closest = 1e9;
    Eigen::Vector3d previous_direction = (c - a).normalized();
    for (int i = 0; i <= 4000; ++i) {
      const double sigma = i / 4000.0;
      const Eigen::Vector3d p = path.At(sigma).position;
      const double off = std::min(DistanceToSegment(p, a, c), DistanceToSegment(p, c, b));
      if (sigma < path.BlendStart(0) || sigma > path.BlendEnd(0)) {
        ASSERT_LT(off, 1e-12) << "sigma " << sigma << " is off the programmed lines";
        continue;
      }
      ASSERT_LE((p - c).norm(), zone + 1e-12) << "sigma " << sigma << " leaves the zone";
      closest = std::min(closest, (p - c).norm());
      // The direction turns one way only, from the first line's to the second's.
      const Eigen::Vector3d direction =
          (path.At(sigma + 1e-7).position - path.At(sigma - 1e-7).position).normalized();
      ASSERT_GE(previous_direction.cross(direction).z(), -1e-9) << "sigma " << sigma;
      previous_direction = direction;
    }
    EXPECT_GT(closest, 0.0);
    EXPECT_LT(closest, zone);
  }
}

TEST(BlendedRunPathTest, MeetsTheLinesSmoothlyToTheThirdDerivative) {
  const BlendedRunPath path = Corner(kPi / 2, 0.1, 0.1, 0.015);
  // Differences of At on each side of the blend's ends: the first three
  // derivatives agree across them (a line's second and third are zero),
  // while inside the blend the second is of the order of v^2 T^2 / r.
  const double h = 2e-4;
  auto derivatives = [&](double sigma) {
    std::vector<Eigen::Vector3d> d(4);
    for (int k = 0; k < 4; ++k) d[k] = path.At(sigma + (k - 1.5) * h).position;
    return std::vector<Eigen::Vector3d>{(d[2] - d[1]) / h,
                                        (d[3] - d[2] - d[1] + d[0]) / (2 * h * h),
                                        (d[3] - 3 * d[2] + 3 * d[1] - d[0]) / (h * h * h)};
  };
  const double cruise = path.Extent().length * kRunTcpVelocityMargin;
  const double curvature_scale = cruise * cruise / 0.015;
  const double middle = derivatives(path.BlendMiddle(0))[1].norm();
  EXPECT_GT(middle, 0.5 * curvature_scale);
  for (double edge : {path.BlendStart(0), path.BlendEnd(0)}) {
    const auto before = derivatives(edge - 3 * h), after = derivatives(edge + 3 * h);
    EXPECT_NEAR((before[0] - after[0]).norm(), 0.0, 1e-6 * cruise);
    EXPECT_LT((before[1] - after[1]).norm(), 1e-2 * middle);
    EXPECT_LT((before[2] - after[2]).norm(), 0.05 * middle * cruise / 0.015);
  }
}

TEST(BlendedRunPathTest, AZoneLargerThanHalfAMotionIsReducedToIt) {
  const BlendedRunPath path = Corner(kPi / 2, 0.04, 0.2, 0.5);
  EXPECT_TRUE(path.Reduced(0));
  // The blend takes half of the shorter motion at most.
  EXPECT_LE(path.LeaveDistance(0), 0.5 * 0.04 + 1e-12);
  EXPECT_GT(path.LeaveDistance(0), 0.4 * 0.04);
}

TEST(BlendedRunPathTest, CornersSharperThan120DegreesAndToolTurnsAreNotBlendedOnThePath) {
  const Pose start = At(Eigen::Vector3d(0.4, 0, 0.3));
  const Pose corner = At(start.position + Eigen::Vector3d(0.1, 0, 0));
  auto turn = [&](double degrees) {
    const double a = degrees * kPi / 180;
    return LinePath(Line(At(corner.position + 0.1 * Eigen::Vector3d(std::cos(a), std::sin(a), 0))),
                    corner);
  };
  const SegmentPath first = LinePath(Line(corner), start);
  EXPECT_TRUE(BlendsOnPath(first, turn(90), Speed()));
  EXPECT_TRUE(BlendsOnPath(first, turn(118), Speed()));
  EXPECT_FALSE(BlendsOnPath(first, turn(125), Speed()));
  EXPECT_FALSE(BlendsOnPath(first, turn(180), Speed()));
  // A motion that only turns the tool has no direction to blend into.
  const Pose turned =
      At(corner.position, Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ())));
  EXPECT_FALSE(BlendsOnPath(first, LinePath(Line(turned), corner), Speed()));
}

TEST(BlendedRunPathTest, ATurningToolTurnsSmoothlyThroughTheBlend) {
  // Both lines turn the tool about different axes; rotation-bound (w small).
  const SpeedSpec speed = Speed(0.25, 0.5);
  const Pose start = At(Eigen::Vector3d(0.4, 0, 0.3));
  const Pose corner = At(start.position + Eigen::Vector3d(0.1, 0, 0),
                         Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ())));
  const Pose end =
      At(corner.position + Eigen::Vector3d(0, 0.1, 0),
         corner.orientation * Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX())));
  std::vector<SegmentPath> motions{LinePath(Line(corner), start), LinePath(Line(end), corner)};
  const BlendedRunPath path(motions, speed, {Distance(0.01)});
  EXPECT_TRUE(path.At(0.0).orientation.isApprox(start.orientation, 1e-12));
  EXPECT_TRUE(path.At(1.0).orientation.isApprox(end.orientation, 1e-12));
  // The rotation rate by differences of the orientations, against Rates,
  // and no jump in it anywhere (a corner in angular velocity).
  double previous = -1;
  for (int i = 1; i < 1000; ++i) {
    const double sigma = i / 1000.0, h = 1e-6;
    const Eigen::AngleAxisd step(path.At(sigma - h).orientation.conjugate() *
                                 path.At(sigma + h).orientation);
    const double rate = step.angle() / (2 * h);
    ASSERT_NEAR(path.Rates(sigma).angular[0], rate, 1e-3 * rate + 1e-6) << "sigma " << sigma;
    if (previous >= 0) {
      ASSERT_NEAR(rate, previous, 0.02 * previous + 1e-6) << "sigma " << sigma;
    }
    previous = rate;
  }
  // Rotation-bound: the tool turns at w per second of cruise on both lines.
  EXPECT_NEAR(path.Rates(0.1).angular[0] /
                  (path.Extent().length * kRunTcpVelocityMargin / speed.linear_velocity),
              speed.angular_velocity, 1e-4);
}

}  // namespace
}  // namespace motion
