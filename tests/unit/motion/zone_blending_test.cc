// Zones that blend: the same programs planned with fine stops and with
// zones, judged by the test's own geometry and the test-side URDF FK:
// outside the zone spheres the TCP is on the programmed lines and arcs,
// inside them it never stops and misses the corner by less than the radius,
// every joint's divided differences stay within its limits, every sample is
// on the grid, and the blended cycle is shorter.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "../../common/test_scale.h"
#include "core/ik/ik_data.h"
#include "core/motion/path_planner.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::ExpectOnGrid;
using motion_test::HasCode;
using motion_test::IndependentFk;
using motion_test::LoadRobot;
using motion_test::MeasureRates;
using motion_test::RateCheck;
using motion_test::Robot;
using motion_test::Std;

// The programmed geometry of one Cartesian motion, as the test sees it.
struct Programmed {
  enum Kind { kJoint, kLine, kArc } kind = kJoint;
  Eigen::Vector3d a, b, via;  // start, end, (arc) via
};

// Distance from p to the segment a-b.
double DistanceToLine(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                      const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double s = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (a + s * ab - p).norm();
}

// Distance from p to the circle through a, via, b (its centre by the
// circumcentre formula of the three points).
double DistanceToCircle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                        const Eigen::Vector3d& via, const Eigen::Vector3d& b) {
  const Eigen::Vector3d u = via - a, w = b - a, n = u.cross(w);
  const Eigen::Vector3d centre =
      a + (w.squaredNorm() * n.cross(u) + u.squaredNorm() * w.cross(n)) / (2 * n.squaredNorm());
  const double radius = (a - centre).norm();
  const Eigen::Vector3d normal = n.normalized();
  const Eigen::Vector3d d = p - centre;
  const double out_of_plane = d.dot(normal);
  const double in_plane = (d - out_of_plane * normal).norm() - radius;
  return std::hypot(in_plane, out_of_plane);
}

double DistanceToProgrammed(const Programmed& m, const Eigen::Vector3d& p) {
  switch (m.kind) {
    case Programmed::kLine:
      return DistanceToLine(p, m.a, m.b);
    case Programmed::kArc:
      return DistanceToCircle(p, m.a, m.via, m.b);
    case Programmed::kJoint:
      break;
  }
  return 0.0;
}

// A program under construction, with what the test knows of its geometry.
struct Program {
  PathRequest request;
  std::vector<Programmed> geometry;  // per segment
  std::vector<Eigen::Vector3d> end;  // TCP at each segment's end
  Eigen::Quaterniond orientation;
};

struct Builder {
  const Robot& robot;
  Program program;
  Eigen::Vector3d at;  // current TCP

  Builder(const Robot& r, const Eigen::VectorXd& start) : robot(r) {
    program.request.start_joints = Std(start);
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, start);
    at = tcp.translation();
    program.orientation = Eigen::Quaterniond(tcp.rotation());
  }
  Pose PoseAt(const Eigen::Vector3d& p) const {
    Pose out;
    out.position = p;
    out.orientation = program.orientation;
    return out;
  }
  MotionSegment& Add(MotionSegment s, Programmed g, const Eigen::Vector3d& end) {
    s.id = std::to_string(program.request.segments.size());
    program.request.segments.push_back(s);
    program.geometry.push_back(g);
    program.end.push_back(end);
    at = end;
    return program.request.segments.back();
  }
  MotionSegment& L(const Eigen::Vector3d& d) {
    MotionSegment s;
    s.kind = MotionKind::kMoveL;
    s.target = PoseAt(at + d);
    return Add(s, {Programmed::kLine, at, at + d, {}}, at + d);
  }
  MotionSegment& C(const Eigen::Vector3d& via, const Eigen::Vector3d& d) {
    MotionSegment s;
    s.kind = MotionKind::kMoveC;
    s.via = PoseAt(at + via);
    s.target = PoseAt(at + d);
    return Add(s, {Programmed::kArc, at, at + d, at + via}, at + d);
  }
  MotionSegment& J(const Eigen::VectorXd& q) {
    MotionSegment s;
    s.kind = MotionKind::kMoveJ;
    s.joint_target = true;
    s.target_joints = Std(q);
    const Eigen::Vector3d end = IndependentFk(robot.ichain, q).translation();
    return Add(s, {Programmed::kJoint, at, end, {}}, end);
  }
};

ZoneSpec Distance(double r) {
  ZoneSpec z;
  z.kind = ZoneKind::kDistance;
  z.distance = r;
  return z;
}

ZoneSpec Cnt(double percent) {
  ZoneSpec z;
  z.kind = ZoneKind::kCnt;
  z.percent = percent;
  return z;
}

PathRequest WithFineStops(PathRequest r) {
  for (MotionSegment& s : r.segments) s.zone = ZoneSpec();
  return r;
}

PathResult Plan(const Robot& robot, const PathRequest& request) {
  IkData data(*robot.chain);
  absl::StatusOr<PathResult> result = PlanPath(*robot.chain, data, request, PathLimits());
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : PathResult();
}

// Every joint within its velocity, acceleration and jerk limit by divided
// differences of the returned positions, every sample on the grid.
void ExpectRunsOnTheRobot(const Robot& robot, const Trajectory& t, double dt) {
  ExpectOnGrid(t, dt);
  const RateCheck rates = MeasureRates(t, robot.chain->dof_limits, dt);
  EXPECT_LE(rates.velocity, 1 + 1e-6);
  EXPECT_LE(rates.acceleration, 1 + 1e-6);
  EXPECT_LE(rates.jerk, 1 + 1e-6);
  // A blend states the sum of both motions' rates in its overlap: within
  // the limits too.
  const RateCheck stated = motion_test::MeasureStatedRates(t, robot.chain->dof_limits);
  EXPECT_LE(stated.velocity, 1 + 1e-6) << "stated velocity";
  EXPECT_LE(stated.acceleration, 1 + 1e-6) << "stated acceleration";
}

// Two long MoveJ targets from the UR5 start (the second turns the shoulder
// pan on, reverses the shoulder lift and bends the elbow).
std::pair<Eigen::VectorXd, Eigen::VectorXd> TwoLongJointMoves(const Eigen::VectorXd& start) {
  Eigen::VectorXd a = start, b = start;
  a[0] += 0.6, a[1] += 0.3;
  b[0] += 1.2, b[2] -= 0.5;
  return {a, b};
}

// Everything a blended program must satisfy, judged by the test's geometry
// and FK. Returns the blended cycle time (the fine-stop one in *fine).
double ExpectBlendedProgramRuns(const Robot& robot, const Program& program, double* fine_time) {
  const PathRequest& request = program.request;
  const PathResult blended = Plan(robot, request);
  const PathResult fine = Plan(robot, WithFineStops(request));
  EXPECT_TRUE(fine.ok);
  EXPECT_TRUE(blended.ok);
  for (const Diagnostic& d : blended.diagnostics) {
    EXPECT_NE(d.severity, Severity::kError) << d.message;
    EXPECT_NE(d.code, DiagnosticCode::kZoneApproximated) << d.message;
  }
  const Trajectory& t = blended.trajectory;
  const double dt = request.sample_time;
  ExpectRunsOnTheRobot(robot, t, dt);

  const std::size_t segments = request.segments.size();
  EXPECT_EQ(blended.segments.size(), segments);
  // The zone sphere at each segment's end (radius 0: none).
  std::vector<double> radius(segments, 0.0);
  for (std::size_t i = 0; i + 1 < segments; ++i) {
    if (request.segments[i].zone.kind == ZoneKind::kDistance) {
      radius[i] = request.segments[i].zone.distance;
    }
  }
  std::vector<Eigen::Vector3d> tcp(t.size());
  for (std::size_t k = 0; k < t.size(); ++k)
    tcp[k] = IndependentFk(robot.ichain, t.Position(k)).translation();

  for (std::size_t i = 0; i < blended.segments.size(); ++i) {
    const SegmentReport& r = blended.segments[i];
    SCOPED_TRACE("segment " + r.segment_id);
    if (i + 1 < segments && request.segments[i].zone.kind != ZoneKind::kFine) {
      EXPECT_TRUE(r.blend.blended);
      EXPECT_GT(r.blend.time_saved, 0.0);
    }
    // Samples of this segment: from its first (the previous one's last) to
    // its last; the blend at its end belongs to it.
    const long first = std::max<long>(0, r.first_index - 1);
    const long last = r.first_index + r.point_count - 1;
    const Programmed& g = program.geometry[i];
    double closest_to_corner = std::numeric_limits<double>::infinity();
    for (long k = first; k <= last; ++k) {
      const Eigen::Vector3d& p = tcp[k];
      const bool in_end_zone = radius[i] > 0 && (p - program.end[i]).norm() <= radius[i] + 1e-9;
      const bool in_start_zone =
          i > 0 && radius[i - 1] > 0 && (p - program.end[i - 1]).norm() <= radius[i - 1] + 1e-9;
      if (in_end_zone) closest_to_corner = std::min(closest_to_corner, (p - program.end[i]).norm());
      if (in_end_zone || in_start_zone) {
        // Never stops inside a zone: the TCP moves between samples.
        if (k > 0 && k + 1 < static_cast<long>(t.size())) {
          EXPECT_GT((tcp[k + 1] - tcp[k - 1]).norm() / (2 * dt), 1e-3) << "sample " << k;
        }
        continue;
      }
      if (g.kind == Programmed::kJoint) continue;
      // Outside the zones: on the programmed line or arc.
      const double off = DistanceToProgrammed(g, p);
      if (k >= last && r.blend.blended) {
        // The blend's end sample is on the next motion's path.
        const Programmed& next = program.geometry[i + 1];
        if (next.kind != Programmed::kJoint) {
          EXPECT_LE(DistanceToProgrammed(next, p), 2e-5);
        }
        continue;
      }
      EXPECT_LE(off, 2e-5) << "sample " << k << " of a blended program is off the path";
    }
    if (r.blend.blended && radius[i] > 0) {
      EXPECT_LT(closest_to_corner, radius[i]) << "the blend misses the corner by the radius";
      EXPECT_NEAR(r.blend.corner_distance, closest_to_corner, 1e-6);
    }
  }
  EXPECT_LT(blended.duration, fine.duration);
  if (fine_time != nullptr) *fine_time = fine.duration;
  return blended.duration;
}

Eigen::VectorXd Ur5Start() {
  return motion_test::Vec({0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0});
}
Eigen::VectorXd PandaStart() {
  return motion_test::Vec({0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785});
}

// The glue bead: a 0.1 m square with 5-20 mm zones at its corners, an arc,
// a MoveJ retreat with CNT 50 into a last MoveJ home.
Program GlueBead(const Robot& robot, const Eigen::VectorXd& start) {
  Builder b(robot, start);
  const Eigen::Vector3d x(0.1, 0, 0), y(0, 0.1, 0);
  b.L(x).zone = Distance(0.005);
  b.L(y).zone = Distance(0.010);
  b.L(-x).zone = Distance(0.015);
  b.L(-y).zone = Distance(0.020);
  // The bead ends at rest; the retreat rounds its corner into the way home.
  b.C(Eigen::Vector3d(-0.03, -0.03, 0), Eigen::Vector3d(0, -0.08, 0));
  Eigen::VectorXd retreat = start;
  retreat[0] += 0.3;
  retreat[1] += 0.2;
  b.J(retreat).zone = Cnt(50);
  b.J(start);
  return b.program;
}

TEST(ZoneBlendingTest, GlueBeadBlendsEveryCornerOnTheUr5AndThePanda) {
  for (const char* file : {"ur5.urdf", "panda.urdf"}) {
    SCOPED_TRACE(file);
    const Robot robot = LoadRobot(file);
    ASSERT_NE(robot.chain, nullptr);
    const Eigen::VectorXd start = std::string(file) == "ur5.urdf" ? Ur5Start() : PandaStart();
    double fine = 0;
    const double blended = ExpectBlendedProgramRuns(robot, GlueBead(robot, start), &fine);
    RecordProperty(std::string(file) + "_fine_s", std::to_string(fine));
    RecordProperty(std::string(file) + "_blended_s", std::to_string(blended));
    std::printf("%s glue bead: fine stops %.3f s, blended %.3f s (%.1f %% shorter)\n", file, fine,
                blended, 100 * (fine - blended) / fine);
  }
}

// A run of MoveLs with DISTANCE zones is one joint curve timed through its
// corners (blended_run.h): the TCP keeps its programmed speed through every
// zone (by the test's own FK: nothing binds on this small square), the
// segments' samples tile the trajectory with each blend at the end of its
// zone's segment, each blend says what a stop there would have cost, and a
// zone larger than half an edge is reduced to that, saying so. With
// `approach`, a MoveJ with CNT 50 leads into the run: its corner blends in
// time into the run's first motion and the rest of the run moves back with
// it, still tiling.
void ExpectARunOfMoveLsTimedThroughItsCorners(bool approach) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const double v = 0.05, side = 0.1, dt = MotionDefaults::kSampleTime;
  Eigen::VectorXd before_start = Ur5Start();
  before_start[0] -= 0.3;
  before_start[1] += 0.2;
  Builder b(robot, approach ? before_start : Ur5Start());
  if (approach) {
    MotionSegment& j = b.J(Ur5Start());
    j.speed.joint_fraction = 0.5;
    j.zone = Cnt(50);
  }
  const std::size_t o = approach ? 1 : 0;  // the square's first segment
  const Eigen::Vector3d x(side, 0, 0), y(0, side, 0);
  for (const Eigen::Vector3d& d : {x, y, Eigen::Vector3d(-x), Eigen::Vector3d(-y)}) {
    MotionSegment& s = b.L(d);
    s.speed.linear_velocity = v;
    s.zone = Distance(0.015);
  }
  b.program.request.segments.back().zone = ZoneSpec();
  b.program.request.segments[o + 2].zone = Distance(1.0);  // reduced to half an edge
  const PathResult blended = Plan(robot, b.program.request);
  const PathResult fine = Plan(robot, WithFineStops(b.program.request));
  ASSERT_TRUE(blended.ok);
  ExpectRunsOnTheRobot(robot, blended.trajectory, dt);
  EXPECT_LT(blended.duration, fine.duration);
  const Trajectory& t = blended.trajectory;
  const std::size_t count = o + 4;
  ASSERT_EQ(blended.segments.size(), count);
  EXPECT_EQ(blended.segments[0].first_index, 0);
  for (std::size_t k = 0; k < count; ++k) {
    SCOPED_TRACE(k);
    const SegmentReport& r = blended.segments[k];
    const std::int64_t last = r.first_index + r.point_count - 1;
    if (k + 1 < count) {
      EXPECT_EQ(blended.segments[k + 1].first_index, last + 1);
      EXPECT_NEAR(blended.segments[k + 1].start_time, t.time[static_cast<std::size_t>(last)], 1e-9);
    } else {
      EXPECT_EQ(last + 1, static_cast<std::int64_t>(t.size()));
      EXPECT_FALSE(r.blend.blended);
      continue;
    }
    ASSERT_TRUE(r.blend.blended);
    EXPECT_EQ(r.blend.end_index, last);
    EXPECT_LT(r.blend.start_index, r.blend.end_index);
    EXPECT_GT(r.blend.time_saved, 0.0);
    if (k < o) continue;  // the approach's blend in time
    EXPECT_NEAR(r.path_length, side, 1e-9);
    // The TCP by the test's own FK: at the programmed speed through the
    // zone, within the sphere the report gives, and past the corner by
    // what it says.
    const Eigen::Vector3d corner = b.program.end[k];
    double slowest = 1e9, fastest = 0.0, closest = 1e9;
    for (std::int64_t i = r.blend.start_index; i < r.blend.end_index; ++i) {
      const Eigen::Vector3d p =
          IndependentFk(robot.ichain, t.Position(static_cast<std::size_t>(i))).translation();
      const Eigen::Vector3d n =
          IndependentFk(robot.ichain, t.Position(static_cast<std::size_t>(i + 1))).translation();
      slowest = std::min(slowest, (n - p).norm() / dt);
      fastest = std::max(fastest, (n - p).norm() / dt);
      closest = std::min(closest, (p - corner).norm());
      EXPECT_LE((p - corner).norm(), r.blend.zone_radius + 1e-5);
    }
    EXPECT_GE(slowest, 0.98 * v);
    EXPECT_LE(fastest, v * (1 + 1e-3));
    EXPECT_NEAR(r.blend.corner_distance, closest, 1e-5);
    EXPECT_LT(closest, r.blend.zone_radius);
  }
  EXPECT_NEAR(blended.segments[o].blend.zone_radius, 0.015, 1e-6);
  const Diagnostic* reduced = nullptr;
  for (const Diagnostic& d : blended.diagnostics) {
    if (d.code == DiagnosticCode::kZoneReduced) reduced = &d;
  }
  ASSERT_NE(reduced, nullptr);
  EXPECT_EQ(reduced->segment_id, std::to_string(o + 2));
  EXPECT_LE(reduced->value, 0.5 * side + 1e-9);
  EXPECT_GT(reduced->value, 0.4 * side);
  EXPECT_EQ(reduced->limit, 1.0);
  EXPECT_NEAR(blended.segments[o + 2].blend.zone_radius, reduced->value, 1e-9);
  // Every diagnostic that names a sample names one of its own segment's
  // (after a blend in time, one of the overlap it began in, which the
  // segment before holds).
  for (std::size_t k = 0; k < count; ++k) {
    const SegmentReport& r = blended.segments[k];
    const std::int64_t from =
        k > 0 && k == o ? blended.segments[k - 1].first_index : r.first_index - 1;
    for (const Diagnostic& d : r.diagnostics) {
      if (d.point_index < 0) continue;
      EXPECT_GE(d.point_index, from) << d.message;
      EXPECT_LT(d.point_index, r.first_index + r.point_count) << d.message;
    }
  }
}

TEST(ZoneBlendingTest, ARunOfMoveLsIsTimedThroughItsCornersAtTheProgrammedSpeed) {
  ExpectARunOfMoveLsTimedThroughItsCorners(false);
}

TEST(ZoneBlendingTest, AZoneBeforeARunBlendsInTimeAndTheRunMovesBackWithIt) {
  ExpectARunOfMoveLsTimedThroughItsCorners(true);
}

// Zones never make a program slower than fine stops. A run of MoveLs whose
// corners are too tight for its speed (2 mm zones at 1 m/s on the UR5) would
// crawl through them on the path; the planner measures the run against its
// segments with fine stops and, losing, blends those corners in time
// instead.
TEST(ZoneBlendingTest, ARunTooTightForItsSpeedIsNeverSlowerThanFineStops) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Builder b(robot, Ur5Start());
  const Eigen::Vector3d x(0.1, 0, 0), y(0, 0.1, 0);
  for (const Eigen::Vector3d& d : {x, y, Eigen::Vector3d(-x), Eigen::Vector3d(-y)}) {
    MotionSegment& s = b.L(d);
    s.speed.linear_velocity = 1.0;
    s.speed.linear_acceleration = 10.0;
    s.speed.linear_jerk = 100.0;
    s.zone = Distance(0.002);
  }
  b.program.request.segments.back().zone = ZoneSpec();
  const PathResult blended = Plan(robot, b.program.request);
  const PathResult fine = Plan(robot, WithFineStops(b.program.request));
  ASSERT_TRUE(fine.ok);
  ASSERT_TRUE(blended.ok);
  ExpectRunsOnTheRobot(robot, blended.trajectory, MotionDefaults::kSampleTime);
  std::printf("[ figures  ] 2 mm corners at 1 m/s: fine stops %.3f s, blended %.3f s\n",
              fine.duration, blended.duration);
  EXPECT_LE(blended.duration, fine.duration + 1e-12);
}

// Every pair of motion kinds blends: first motion with a 15 mm zone into
// the second, on the UR5. The MoveJs run at half of every joint limit: two
// overlapping motions within half of each limit are within the whole one
// whatever the overlap (at full limits see SaturatedJointsBlendOnlyAsFar...).
TEST(ZoneBlendingTest, EveryPairOfMotionKindsBlends) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd start = Ur5Start();
  const Eigen::Vector3d x(0.12, 0, 0), y(0, 0.12, 0);
  const Eigen::Vector3d via_x(0.06, 0.03, 0), via_y(-0.03, 0.06, 0);
  Eigen::VectorXd step1 = start, step2 = start;
  step1[0] += 0.25, step1[1] += 0.15;
  step2[0] += 0.5, step2[2] -= 0.2;
  struct Pair {
    const char* name;
    char first, second;
  };
  for (const Pair& pair : {Pair{"J->J", 'J', 'J'}, Pair{"J->L", 'J', 'L'}, Pair{"L->J", 'L', 'J'},
                           Pair{"L->L", 'L', 'L'}, Pair{"L->C", 'L', 'C'}, Pair{"C->L", 'C', 'L'},
                           Pair{"C->C", 'C', 'C'}}) {
    SCOPED_TRACE(pair.name);
    Builder b(robot, start);
    auto add = [&](char kind, bool first) -> MotionSegment& {
      switch (kind) {
        case 'L':
          return b.L(first ? x : y);
        case 'C':
          return b.C(first ? via_x : via_y, first ? x : y);
        default: {
          MotionSegment& s = b.J(first ? step1 : step2);
          s.speed.joint_fraction = 0.5;
          return s;
        }
      }
    };
    add(pair.first, true).zone = Distance(0.015);
    add(pair.second, false);
    ExpectBlendedProgramRuns(robot, b.program, nullptr);
  }
}

// CNT is joint-space rounding by time: a larger percent overlaps more, so
// the cycle gets shorter with it, and the corner is cut more.
TEST(ZoneBlendingTest, CntPercentSetsHowMuchTheMotionsOverlap) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd start = Ur5Start();
  const auto [a, b] = TwoLongJointMoves(start);
  double previous_duration = std::numeric_limits<double>::infinity();
  double previous_miss = 0.0;
  for (double percent : {0.0, 25.0, 50.0, 100.0}) {
    SCOPED_TRACE(percent);
    Builder builder(robot, start);
    MotionSegment& first = builder.J(a);
    first.zone = Cnt(percent);
    first.speed.joint_fraction = 0.5;
    builder.J(b).speed.joint_fraction = 0.5;
    const PathResult result = Plan(robot, builder.program.request);
    ASSERT_TRUE(result.ok);
    ExpectRunsOnTheRobot(robot, result.trajectory, 0.004);
    EXPECT_LT(result.duration, previous_duration);
    const BlendReport& blend = result.segments[0].blend;
    EXPECT_EQ(blend.blended, percent > 0);
    if (percent > 0) {
      EXPECT_GT(blend.corner_distance, previous_miss);
    }
    previous_duration = result.duration;
    previous_miss = blend.corner_distance;
  }
}

// At full speed a MoveJ's limiting joint is at its jerk limit while it
// slows down and speeds up again: overlapping a little of both adds their
// jerks. The planner blends only as far as every limit allows (possibly
// not at all, a fine stop saying which joint and limit forbade it), and
// what it returns is within the limits either way. The limits are set to
// the documented defaults (a = 2 v, j = 10 a): proportional limits leave the
// shoulder, which turns back at the corner and moves half as far as the pan
// joint, room for both motions' braking and accelerating added up. With the
// UR5's effort-derived accelerations (shoulder 22.6, pan 31.5 rad/s^2) it has
// none and no overlap fits (docs/cartesian_motion.md).
TEST(ZoneBlendingTest, SaturatedJointsBlendOnlyAsFarAsTheirLimitsAllow) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd start = Ur5Start();
  const auto [a, b] = TwoLongJointMoves(start);
  std::vector<JointLimits> documented_defaults = robot.chain->dof_limits;
  for (JointLimits& l : documented_defaults) {
    l.max_acceleration = kDefaultAccelerationPerVelocity * l.max_velocity;
    l.max_jerk = kDefaultJerkPerAcceleration * l.max_acceleration;
  }
  int blended = 0, refused = 0;
  for (const ZoneSpec& zone : {Distance(0.005), Distance(0.02), Distance(0.1), Cnt(10), Cnt(25),
                               Cnt(50), Cnt(75), Cnt(100)}) {
    Builder builder(robot, start);
    builder.program.request.joint_limits = documented_defaults;
    builder.J(a).zone = zone;
    builder.J(b);
    const PathResult result = Plan(robot, builder.program.request);
    ASSERT_TRUE(result.ok);
    ExpectRunsOnTheRobot(robot, result.trajectory, 0.004);
    if (result.segments[0].blend.blended) {
      ++blended;
    } else {
      ++refused;
      ASSERT_TRUE(HasCode(result.diagnostics, DiagnosticCode::kZoneApproximated, "0"));
      const Diagnostic& d = result.segments[0].diagnostics.back();
      EXPECT_NE(d.message.find("limit"), std::string::npos) << d.message;
    }
  }
  std::printf("full-speed J->J: %d zones blended, %d refused by the limits\n", blended, refused);
  EXPECT_GT(blended, 0);  // the full overlap lines the jerk phases up: it fits
}

// Two joint moves at a Panda's own limits (accelerations from its efforts)
// where the shoulder turns back at the corner: overlapping them in time
// finds no room for its braking and speeding up at once (the corner would be
// a fine stop), so the run becomes one joint curve with its corner rounded,
// timed as one motion (move_j_run.h), kept because it is faster. Judged
// here: the zone is blended and the arm never stops between the start and
// the end; every joint within its limits by divided differences on the
// grid; faster than fine stops; outside the blend the joints are on the two
// straight legs, and with DISTANCE the TCP (test-side FK) stays within the
// sphere around the corner inside it. Only large roundings beat a stop
// here: a small one has to pass the corner slowly (its curvature) and pays
// the curve timing's jerk ramps (docs/cartesian_motion.md).
TEST(ZoneBlendingTest, AtTheirOwnLimitsJointMovesRoundACornerWhereAJointTurnsBack) {
  const Robot robot = LoadRobot("panda.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd start = PandaStart();
  Eigen::VectorXd a = start, b;
  a[0] += 0.8, a[1] += 0.24;
  b = a;
  b[0] += 0.8, b[1] -= 0.24, b[2] -= 0.32;
  const Eigen::Vector3d corner = IndependentFk(robot.ichain, a).translation();
  auto distance_to_leg = [](const Eigen::VectorXd& q, const Eigen::VectorXd& p0,
                            const Eigen::VectorXd& p1) {
    const double s = std::clamp((q - p0).dot(p1 - p0) / (p1 - p0).squaredNorm(), 0.0, 1.0);
    return (p0 + s * (p1 - p0) - q).norm();
  };
  for (const ZoneSpec& zone : {Cnt(100), Distance(0.3)}) {
    SCOPED_TRACE(zone.kind == ZoneKind::kDistance ? zone.distance : zone.percent);
    Builder builder(robot, start);
    builder.J(a).zone = zone;
    builder.J(b);
    const PathResult result = Plan(robot, builder.program.request);
    const PathResult fine = Plan(robot, WithFineStops(builder.program.request));
    ASSERT_TRUE(result.ok);
    ASSERT_TRUE(fine.ok);
    ExpectRunsOnTheRobot(robot, result.trajectory, 0.004);
    EXPECT_LT(result.duration, fine.duration - 0.05);
    const BlendReport& blend = result.segments[0].blend;
    ASSERT_TRUE(blend.blended);
    EXPECT_GT(blend.time_saved, 0.0);
    EXPECT_LT(blend.corner_distance, blend.zone_radius);
    const Trajectory& t = result.trajectory;
    const int dof = t.dof;
    for (std::size_t k = 1; k + 1 < t.size(); ++k) {
      const Eigen::VectorXd q = t.Position(k);
      double moved = 0;
      for (int j = 0; j < dof; ++j) {
        moved = std::max(moved,
                         std::abs(t.positions[(k + 1) * dof + j] - t.positions[(k - 1) * dof + j]));
      }
      EXPECT_GT(moved, 1e-9) << "at rest at sample " << k;
      const long i = static_cast<long>(k);
      if (i < blend.start_index || i > blend.end_index) {
        EXPECT_LT(std::min(distance_to_leg(q, start, a), distance_to_leg(q, a, b)), 1e-9)
            << "off the legs at sample " << k;
      } else if (zone.kind == ZoneKind::kDistance) {
        EXPECT_LE((IndependentFk(robot.ichain, q).translation() - corner).norm(),
                  zone.distance + 1e-9)
            << "outside the sphere at sample " << k;
      }
    }
    std::printf("[ figures  ] Panda J->J, shoulder turning back: %.3f s against %.3f s fine\n",
                result.duration, fine.duration);
  }
}

// Random programs on several arms: random MoveJ / MoveL / MoveC steps with
// random zones of every kind. Whenever the fine-stop program runs, the
// blended one runs too: no error the fine stops did not have, within every
// limit by divided differences, on the grid, never longer, and every
// Cartesian sample outside the zone spheres on its programmed path.
TEST(ZoneBlendingTest, RandomProgramsWithZonesRunWheneverTheirFineStopsDo) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int programs = 0, blends = 0;
  // 12 random programs per arm (fewer under MOTIOND_TEST_SCALE).
  const int trials = motiond_test_scale::ScaledCount(12);
  for (const char* file :
       {"ur5.urdf", "panda.urdf", "abb_irb2400.urdf", "iiwa14.urdf", "fanuc_lrmate200id.urdf"}) {
    SCOPED_TRACE(file);
    const Robot robot = LoadRobot(file);
    ASSERT_NE(robot.chain, nullptr);
    const int dof = robot.chain->dof();
    for (int trial = 0; trial < trials; ++trial) {
      // A start away from the joint limits, and the steps around its TCP.
      Eigen::VectorXd start(dof);
      for (int j = 0; j < dof; ++j) {
        const double lo = std::max(robot.lower[j], -2.5), hi = std::min(robot.upper[j], 2.5);
        start[j] = lo + (0.35 + 0.3 * unit(rng)) * (hi - lo);
      }
      Builder b(robot, start);
      auto step = [&](double size) -> Eigen::Vector3d {
        return Eigen::Vector3d(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5).normalized() *
               size;
      };
      Eigen::VectorXd q = start;
      for (int i = 0; i < 5; ++i) {
        const double kind = unit(rng);
        MotionSegment* s;
        if (kind < 0.45) {
          s = &b.L(step(0.04 + 0.08 * unit(rng)));
          s->speed.linear_velocity = 0.05 + 0.25 * unit(rng);
        } else if (kind < 0.7) {
          const Eigen::Vector3d d = step(0.05 + 0.05 * unit(rng));
          const Eigen::Vector3d bulge = d.cross(step(1.0)).normalized() * 0.3 * d.norm();
          s = &b.C(0.5 * d + bulge, d);
        } else {
          for (int j = 0; j < dof; ++j) q[j] += 0.3 * (unit(rng) - 0.5);
          s = &b.J(q);
          s->speed.joint_fraction = 0.2 + 0.8 * unit(rng);
        }
        const double z = unit(rng);
        s->zone = z < 0.4   ? Distance(0.002 + 0.03 * unit(rng))
                  : z < 0.7 ? Cnt(100 * unit(rng))
                  : z < 0.8 ? ZoneSpec{ZoneKind::kContinuous, 0, 0}
                            : ZoneSpec();
        // A MoveJ after Cartesian steps goes near the start again (the test
        // has no IK of its own to know where those steps left the joints).
        if (s->kind != MotionKind::kMoveJ) q = start;
      }
      const PathResult fine = Plan(robot, WithFineStops(b.program.request));
      if (!fine.ok) continue;  // out of reach, a flip: not a blending question
      ++programs;
      const PathResult blended = Plan(robot, b.program.request);
      for (const Diagnostic& d : blended.diagnostics) {
        EXPECT_NE(d.severity, Severity::kError) << d.message;
      }
      ExpectRunsOnTheRobot(robot, blended.trajectory, 0.004);
      EXPECT_LE(blended.duration, fine.duration + 1e-12);
      for (const SegmentReport& r : blended.segments) blends += r.blend.blended;
    }
  }
  std::printf("%d random programs, %d corners blended\n", programs, blends);
  // Most programs are followable: more than 20 of the 60 asked at full scale.
  EXPECT_GT(12 * programs, 20 * trials);
  EXPECT_GT(blends, 2 * programs);
}

// Long motions at their joints' limits with CONTINUOUS zones: a corner
// tries a bounded number of overlaps (not every one of tens of thousands of
// samples), and what comes back is within the limits and on the grid.
TEST(ZoneBlendingTest, LongSaturatedMotionsWithContinuousZonesStayWithinLimits) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd start = Ur5Start();
  const auto [a, b] = TwoLongJointMoves(start);
  Builder builder(robot, start);
  for (const Eigen::VectorXd* q : {&a, &b, &a, &b}) {
    builder.J(*q).zone = ZoneSpec{ZoneKind::kContinuous, 0, 0};
  }
  PathRequest request = builder.program.request;
  // Slow joints: every motion is tens of seconds, ~10 000 samples.
  request.joint_limits = robot.chain->dof_limits;
  for (JointLimits& l : request.joint_limits) {
    l.max_velocity = 0.03;
    l.max_acceleration = 0.06;
    l.max_jerk = 0.6;
  }
  IkData data(*robot.chain);
  PathLimits limits;
  limits.max_points = 200000;
  const absl::StatusOr<PathResult> result = PlanPath(*robot.chain, data, request, limits);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->ok);
  EXPECT_GT(result->trajectory.size(), 10000u);
  ExpectOnGrid(result->trajectory, 0.004);
  const RateCheck rates = MeasureRates(result->trajectory, request.joint_limits, 0.004);
  EXPECT_LE(rates.velocity, 1 + 1e-6);
  EXPECT_LE(rates.acceleration, 1 + 1e-6);
  EXPECT_LE(rates.jerk, 1 + 1e-6);
}

// A zone larger than half a neighbouring motion is reduced to that half and
// says so; the blend stays inside the reduced sphere.
TEST(ZoneBlendingTest, ZoneLargerThanHalfAMotionIsReduced) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Builder b(robot, Ur5Start());
  b.L(Eigen::Vector3d(0.1, 0, 0)).zone = Distance(0.2);
  b.L(Eigen::Vector3d(0, 0.04, 0));
  const PathResult result = Plan(robot, b.program.request);
  ASSERT_TRUE(result.ok);
  ASSERT_TRUE(HasCode(result.diagnostics, DiagnosticCode::kZoneReduced, "0"));
  const BlendReport& blend = result.segments[0].blend;
  ASSERT_TRUE(blend.blended);
  EXPECT_NEAR(blend.zone_radius, 0.02, 1e-9);
  EXPECT_LE(blend.leave_distance, 0.02 + 1e-12);
  EXPECT_LE(blend.rejoin_distance, 0.02 + 1e-12);
}

// The last motion ends at rest whatever its zone, and says so; so does a
// zone before a motion that failed.
TEST(ZoneBlendingTest, LastMotionEndsInAFineStop) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Builder b(robot, Ur5Start());
  b.L(Eigen::Vector3d(0.1, 0, 0)).zone = Distance(0.01);
  b.L(Eigen::Vector3d(0, 0.1, 0)).zone = Distance(0.01);
  const PathResult result = Plan(robot, b.program.request);
  ASSERT_TRUE(result.ok);
  EXPECT_TRUE(result.segments[0].blend.blended);
  EXPECT_FALSE(result.segments[1].blend.blended);
  EXPECT_TRUE(HasCode(result.diagnostics, DiagnosticCode::kZoneApproximated, "1"));
  EXPECT_FALSE(HasCode(result.diagnostics, DiagnosticCode::kZoneApproximated, "0"));
  const Trajectory& t = result.trajectory;
  const int dof = t.dof;
  // At rest at the end: the last step is a jerk-limited stop's, far below
  // a sample's travel at speed.
  for (int j = 0; j < dof; ++j) {
    EXPECT_NEAR(t.positions[(t.size() - 1) * dof + j], t.positions[(t.size() - 2) * dof + j], 1e-6);
  }
  EXPECT_EQ(t.velocities.back(), 0.0);
}

}  // namespace
}  // namespace motion
