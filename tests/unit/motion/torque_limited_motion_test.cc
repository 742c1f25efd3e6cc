// Torque as a limit of every motion kind (issue 26): what the planner
// returns needs no more than each joint's max_torque, judged here by KDL's
// ChainIdSolver_RNE on a chain the test builds from the URDF text itself
// (../independent_dynamics.h), with the payload as one more rigid body, on
// central differences of the returned positions. And a motion slowed for
// torque is slowed no more than it must: its torque reaches the limit.

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../common/test_scale.h"
#include "core/ik/ik_data.h"
#include "core/motion/path_planner.h"
#include "independent_dynamics.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::IndependentFk;
using motion_test::LoadRobot;
using motion_test::Robot;
using motion_test::Std;
using motion_test::ToPose;

// The arms whose URDF gives every moving link an <inertial> and every joint
// an effort (the others plan without torque, DYNAMICS_UNAVAILABLE).
const char* const kDynamicArms[] = {"ur5.urdf", "ur5e.urdf", "ur10.urdf", "panda.urdf",
                                    "iiwa14.urdf"};

struct Arm {
  Robot robot;
  KDL::Chain kdl;  // without payload
};

Arm LoadArm(const std::string& file) {
  Arm arm;
  arm.robot = LoadRobot(file);
  const std::string urdf = motion_test::ReadRobotFile(file);
  arm.kdl = motion_test::IndependentKdlChain(*arm.robot.spec, arm.robot.ichain,
                                             motion_test::ReadInertials(urdf));
  return arm;
}

KDL::Chain WithPayload(const KDL::Chain& chain, const Payload& payload) {
  KDL::Chain out = chain;
  out.addSegment(
      KDL::Segment("payload", KDL::Joint("payload", KDL::Joint::Fixed), KDL::Frame::Identity(),
                   motion_test::KdlInertia(payload.mass, payload.center_of_mass, payload.inertia)));
  return out;
}

// The worst |tau| / max_torque over the samples of `t`, velocities and
// accelerations by central differences (at rest before the first sample
// and after the last), torques by KDL with every chain `chains(k)` gives
// for sample k (the payloads it may carry there).
double KdlTorqueRatio(const Robot& robot, const Trajectory& t, double dt,
                      const std::vector<JointLimits>& limits,
                      const std::function<std::vector<const KDL::Chain*>(long k)>& chains) {
  const long n = static_cast<long>(t.size());
  double worst = 0;
  for (long k = 0; k < n; ++k) {
    const Eigen::VectorXd a = t.Position(static_cast<std::size_t>(std::max(0L, k - 1)));
    const Eigen::VectorXd b = t.Position(static_cast<std::size_t>(k));
    const Eigen::VectorXd c = t.Position(static_cast<std::size_t>(std::min(n - 1, k + 1)));
    for (const KDL::Chain* chain : chains(k)) {
      const Eigen::VectorXd tau =
          motion_test::KdlInverseDynamics(*chain, robot.ichain, b, (c - a) / (2 * dt),
                                          (c - 2 * b + a) / (dt * dt), kDefaultGravity);
      for (int j = 0; j < tau.size(); ++j) {
        worst = std::max(worst, std::abs(tau[j]) / limits[static_cast<std::size_t>(j)].max_torque);
      }
    }
  }
  return worst;
}

Payload PointMass(double mass, double reach) {
  Payload p;
  p.mass = mass;
  p.center_of_mass = Eigen::Vector3d(0, 0, reach);
  p.inertia = Eigen::Matrix3d::Identity() * 1e-3 * mass;
  return p;
}

const Diagnostic* Find(const PathResult& r, DiagnosticCode code) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

TEST(TorqueLimitedMotionTest, FastHeavyMoveJIsSlowedUntilItsTorqueFitsAndNoFurther) {
  // A UR5 with 5 kg 10 cm past the flange and accelerations raised to
  // 15 rad/s^2 swings its arm out: at full acceleration the shoulder needs
  // more than its 150 N*m. Both MoveJ kinds come back ok, slowed for torque
  // (SPEED_REDUCED naming the joint), within every max_torque by KDL, and
  // with the worst torque at the limit (within 5 %): no slower than needed.
  Arm arm = LoadArm("ur5.urdf");
  ASSERT_NE(arm.robot.chain, nullptr);
  const Payload payload = PointMass(5.0, 0.1);
  const KDL::Chain kdl = WithPayload(arm.kdl, payload);
  std::vector<JointLimits> limits = arm.robot.chain->dof_limits;
  for (JointLimits& l : limits) {
    l.max_acceleration = 15.0;
    l.max_jerk = 300.0;
  }
  const Eigen::VectorXd q0 = (Eigen::VectorXd(6) << 0.0, -1.6, 0.0, -1.5, 0.0, 0.0).finished();
  const Eigen::VectorXd q1 = (Eigen::VectorXd(6) << 1.2, -0.2, -0.3, -1.2, 0.4, 0.0).finished();
  for (const JointSync sync : {JointSync::kStraight, JointSync::kTime}) {
    SCOPED_TRACE(sync == JointSync::kTime ? "sync TIME" : "straight");
    PathRequest request;
    request.start_joints = Std(q0);
    request.joint_limits = limits;
    request.payload = payload;
    MotionSegment move;
    move.id = "swing";
    move.joint_target = true;
    move.target_joints = Std(q1);
    move.sync = sync;
    request.segments = {move};
    IkData data(*arm.robot.chain);
    auto result = PlanPath(*arm.robot.chain, data, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_TRUE(result->ok);
    const Diagnostic* reduced = Find(*result, DiagnosticCode::kSpeedReduced);
    ASSERT_NE(reduced, nullptr);
    EXPECT_NE(reduced->message.find("torque"), std::string::npos) << reduced->message;
    const double ratio =
        KdlTorqueRatio(arm.robot, result->trajectory, MotionDefaults::kSampleTime, limits,
                       [&](long) { return std::vector<const KDL::Chain*>{&kdl}; });
    std::printf("[ figures  ] %s: %.3f s, worst torque %.4f x its limit by KDL (planner %.4f)\n",
                sync == JointSync::kTime ? "sync TIME" : "straight", result->duration, ratio,
                result->segments[0].max_joint_torque_ratio);
    EXPECT_LE(ratio, 1 + 1e-6);
    EXPECT_GE(ratio, 0.95) << "slowed more than the torque asks";
    EXPECT_NEAR(ratio, result->segments[0].max_joint_torque_ratio, 1e-6);
  }
}

// A UR5 MoveL with 4 kg that reaches out horizontally: the shoulder's torque
// just to hold the arm still (gravity, payload) along the line, measured
// here by KDL on the planned samples at zero velocity and acceleration, is
// H. With the shoulder's max_torque just above H (H = 0.985 of it: inside
// the timing's 3 % torque margin) the line still runs, slowly, within the
// limit by KDL; with it below H no speed can move the arm there, and the
// planner says so as TORQUE_LIMIT naming the shoulder, not as an
// acceleration limit.
TEST(TorqueLimitedMotionTest, ALineThatGravityAlmostStallsRunsSlowlyAndOneItStallsIsTorqueLimit) {
  Arm arm = LoadArm("ur5.urdf");
  ASSERT_NE(arm.robot.chain, nullptr);
  const ChainModel& chain = *arm.robot.chain;
  const Payload payload = PointMass(4.0, 0.1);
  const KDL::Chain kdl = WithPayload(arm.kdl, payload);
  const Eigen::VectorXd q0 = (Eigen::VectorXd(6) << 0.0, -1.0, 1.2, -1.77, -1.57, 0.0).finished();
  const Eigen::Isometry3d start = IndependentFk(arm.robot.ichain, q0);
  Eigen::Isometry3d end = start;
  end.translation() += Eigen::Vector3d(0.0, 0.1, 0.0);
  auto plan = [&](double shoulder_torque) {
    PathRequest request;
    request.start_joints = Std(q0);
    request.payload = payload;
    request.joint_limits = chain.dof_limits;
    if (shoulder_torque > 0) request.joint_limits[1].max_torque = shoulder_torque;
    MotionSegment line;
    line.id = "reach";
    line.kind = MotionKind::kMoveL;
    line.target = ToPose(end);
    // Fast enough that the joints, not the TCP, bind: timed along the curve.
    line.speed.linear_velocity = 1.0;
    line.speed.linear_acceleration = 20.0;
    line.speed.linear_jerk = 400.0;
    request.segments = {line};
    IkData data(chain);
    auto result = PlanPath(chain, data, request, PathLimits{});
    EXPECT_TRUE(result.ok()) << result.status();
    return *result;
  };
  const PathResult free = plan(0.0);
  ASSERT_TRUE(free.ok);
  double holding = 0;
  for (std::size_t k = 0; k < free.trajectory.size(); ++k) {
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
    const Eigen::VectorXd tau = motion_test::KdlInverseDynamics(
        kdl, arm.robot.ichain, free.trajectory.Position(k), zero, zero, kDefaultGravity);
    holding = std::max(holding, std::abs(tau[1]));
  }
  ASSERT_GT(holding, 10.0);

  const double limit = holding / 0.985;
  const PathResult slow = plan(limit);
  for (const Diagnostic& d : slow.diagnostics) {
    EXPECT_NE(d.severity, Severity::kError) << d.message;
  }
  EXPECT_TRUE(slow.ok);
  std::vector<JointLimits> limits = chain.dof_limits;
  limits[1].max_torque = limit;
  const double ratio =
      KdlTorqueRatio(arm.robot, slow.trajectory, MotionDefaults::kSampleTime, limits,
                     [&](long) { return std::vector<const KDL::Chain*>{&kdl}; });
  EXPECT_LE(ratio, 1 + 1e-6);

  const PathResult stalled = plan(holding / 1.05);
  EXPECT_FALSE(stalled.ok);
  const Diagnostic* torque = Find(stalled, DiagnosticCode::kTorqueLimit);
  ASSERT_NE(torque, nullptr);
  EXPECT_EQ(torque->joint_name, "shoulder_lift_joint");
  EXPECT_GT(torque->value, holding / 1.05);
  EXPECT_EQ(Find(stalled, DiagnosticCode::kAccelLimit), nullptr);
  std::printf(
      "[ figures  ] holding torque %.2f N*m: at 0.985 of the limit %.3f s (free %.3f s), "
      "worst %.4f by KDL; at 1.05: %s\n",
      holding, slow.duration, free.duration, ratio, torque->message.c_str());
}

// Program 24 of the random set below under seed 2 (found by running it
// longer): its MoveL keeps the programmed TCP double-S, whose sampled
// positions are within every limit by divided differences, while the
// acceleration it states at one sample (iiwa_joint_6, -5.0019 against
// 4.9765) is not. What a trajectory states is what a controller may feed
// forward: it is held to the limits too, and the MoveL is timed along its
// curve instead.
TEST(TorqueLimitedMotionTest, StatedVelocitiesAndAccelerationsAreWithinTheLimitsToo) {
  const Arm arm = LoadArm("iiwa14.urdf");
  ASSERT_NE(arm.robot.chain, nullptr);
  const ChainModel& chain = *arm.robot.chain;
  std::vector<JointLimits> limits = chain.dof_limits;
  const double raised[7][2] = {
      {6.4995130411779476, 248.36467129430213}, {8.5179390297443138, 302.95198491747976},
      {7.406076906970875, 297.72708521591363},  {8.3621086990589202, 132.13046671427543},
      {10.19419545878311, 305.0439879464343},   {4.976470034713282, 97.479767816532132},
      {18.650644834848919, 430.37690693980272}};
  for (int j = 0; j < 7; ++j) {
    limits[j].max_acceleration = raised[j][0];
    limits[j].max_jerk = raised[j][1];
  }
  PathRequest request;
  request.start_joints = {-2.3443166098810306,  0.31335135687310234,  -1.0308180515223313,
                          -0.84415975830141932, -0.21653390989769328, -1.3444486141426129,
                          -1.2604280222856232};
  request.joint_limits = limits;
  request.payload = PointMass(1.544600055635247, 0.11330472478838388);
  const Eigen::Quaterniond tool_down(0.65719686754093776, 0.26206500316192727, -0.11366417121076251,
                                     0.69749169715136294);
  auto pose = [&](double x, double y, double z) {
    Pose p;
    p.position = Eigen::Vector3d(x, y, z);
    p.orientation = tool_down;
    return p;
  };
  MotionSegment arc1, arc2, line;
  arc1.id = "s0";
  arc1.kind = MotionKind::kMoveC;
  arc1.speed.linear_velocity = 0.38471041984983212;
  arc1.via = pose(-0.40275081263241286, -0.15233621926585275, 1.0346306574020891);
  arc1.target = pose(-0.44357500833580998, -0.16126880760066253, 1.0901292640852138);
  arc2.id = "s1";
  arc2.kind = MotionKind::kMoveC;
  arc2.speed.linear_velocity = 0.37542151357137943;
  arc2.via = pose(-0.45329604729719036, -0.15960060863074219, 1.1044001602370692);
  arc2.target = pose(-0.41189633711403889, -0.12781589822791117, 1.091581750742219);
  arc2.zone.kind = ZoneKind::kDistance;
  arc2.zone.distance = 0.018860945786369467;
  arc2.payload = PointMass(2.7959831480381578, 0.1);
  line.id = "s2";
  line.kind = MotionKind::kMoveL;
  line.speed.linear_velocity = 0.46299562926118742;
  line.target = pose(-0.41591076021432083, -0.1739054414182708, 1.1308610124698757);
  line.zone.kind = ZoneKind::kDistance;
  line.zone.distance = 0.011695445139743988;
  request.segments = {arc1, arc2, line};
  IkData data(chain);
  auto result = PlanPath(chain, data, request, PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  for (const Diagnostic& d : result->diagnostics) {
    EXPECT_NE(d.severity, Severity::kError) << d.message;
  }
  EXPECT_TRUE(result->ok);
  const Trajectory& t = result->trajectory;
  const motion_test::RateCheck stated = motion_test::MeasureStatedRates(t, limits);
  EXPECT_LE(stated.velocity, 1 + 1e-6);
  EXPECT_LE(stated.acceleration, 1 + 1e-6);
  const motion_test::RateCheck rates =
      motion_test::MeasureRates(t, limits, MotionDefaults::kSampleTime);
  EXPECT_LE(rates.velocity, 1 + 1e-6);
  EXPECT_LE(rates.acceleration, 1 + 1e-6);
  EXPECT_LE(rates.jerk, 1 + 1e-6);
  std::printf(
      "[ figures  ] stated velocity %.4f, acceleration %.4f of the limits; sampled %.4f, "
      "%.4f, jerk %.4f; %.3f s\n",
      stated.velocity, stated.acceleration, rates.velocity, rates.acceleration, rates.jerk,
      result->duration);
}

TEST(TorqueLimitedMotionTest, RandomProgramsWithPayloadsAndZonesStayWithinEveryMaxTorque) {
  // Three-segment programs (MoveJ, MoveL, MoveC in random order, random
  // zones between them) with a payload of up to 1.5 x 3 kg from the start
  // and a second one picked up on the way, accelerations raised so that
  // torque binds: whatever comes back ok needs no more than each joint's
  // max_torque by KDL, with the payload each sample carries.
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Arm> arms;
  for (const char* f : kDynamicArms) arms.push_back(LoadArm(f));
  int programs = 0, ok = 0, slowed = 0, blended = 0;
  std::map<std::string, int> refusals;
  double worst = 0;
  for (int i = 0; i < motiond_test_scale::ScaledCount(150); ++i) {
    const Arm& arm = arms[static_cast<std::size_t>(i) % arms.size()];
    SCOPED_TRACE(std::string(kDynamicArms[static_cast<std::size_t>(i) % arms.size()]) +
                 " program " + std::to_string(i));
    ASSERT_NE(arm.robot.chain, nullptr);
    const ChainModel& chain = *arm.robot.chain;
    std::vector<JointLimits> limits = chain.dof_limits;
    for (JointLimits& l : limits) {
      l.max_acceleration = l.max_velocity * (2.0 + 6.0 * std::abs(unit(rng)));
      l.max_jerk = l.max_acceleration * (10.0 + 40.0 * std::abs(unit(rng)));
    }
    const Payload first = PointMass(3.0 * std::abs(unit(rng)), 0.05 + 0.1 * std::abs(unit(rng)));
    const Payload second = PointMass(3.0 * std::abs(unit(rng)), 0.1);
    Eigen::VectorXd q = motion_test::RandomJoints(*arm.robot.spec, arm.robot.ichain, rng, -0.3);
    PathRequest request;
    request.start_joints = Std(q);
    request.joint_limits = limits;
    request.payload = first;
    Eigen::Isometry3d at = IndependentFk(arm.robot.ichain, q);
    std::vector<Payload> carried;  // per segment
    for (int s = 0; s < 3; ++s) {
      MotionSegment segment;
      const int kind = static_cast<int>(std::abs(unit(rng)) * 3) % 3;
      if (kind == 0) {
        segment.joint_target = true;
        for (int j = 0; j < q.size(); ++j) q[j] += 0.4 * unit(rng);
        segment.target_joints = Std(q);
        at = IndependentFk(arm.robot.ichain, q);
      } else {
        segment = motion_test::RandomCartesianSegment(rng, kind == 1, at, 0.06, 0.04, 0.1,
                                                      kind == 1 ? 0.4 : 0.3);
      }
      segment.id = "s" + std::to_string(s);
      if (s == 1) segment.payload = second;  // picked up
      carried.push_back(s == 0 ? first : second);
      if (std::abs(unit(rng)) < 0.6) {
        segment.zone.kind = ZoneKind::kDistance;
        segment.zone.distance = 0.005 + 0.02 * std::abs(unit(rng));
      }
      request.segments.push_back(segment);
    }
    IkData data(chain);
    auto result = PlanPath(chain, data, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    ++programs;
    for (const Diagnostic& d : result->diagnostics) {
      EXPECT_NE(d.code, DiagnosticCode::kDynamicsUnavailable) << d.message;
      if (d.severity != Severity::kError) continue;
      EXPECT_NE(d.code, DiagnosticCode::kTorqueLimit) << d.message;
      EXPECT_NE(d.code, DiagnosticCode::kVelocityLimit) << d.message;
      EXPECT_NE(d.code, DiagnosticCode::kAccelLimit) << d.message;
      EXPECT_NE(d.code, DiagnosticCode::kJerkLimit) << d.message;
      refusals[DiagnosticCodeName(d.code)]++;
    }
    if (!result->ok) continue;
    ++ok;
    slowed += motion_test::HasCode(result->diagnostics, DiagnosticCode::kSpeedReduced);
    for (const SegmentReport& r : result->segments) blended += r.blend.blended;
    // Each sample with the payload it carries: the first up to the second
    // segment, the second from there. At a fine stop the samples next to
    // the change carry both (their differences reach across it). A blended
    // corner changes the payload somewhere inside its overlap (both motions
    // run there at once), so the overlap carries both, as the planner
    // models it, and each motion's own samples outside it carry its own
    // payload, whatever their differences reach.
    const Trajectory& t = result->trajectory;
    // And every rate within the (raised) limits, by divided differences.
    const motion_test::RateCheck rates =
        motion_test::MeasureRates(t, limits, MotionDefaults::kSampleTime);
    EXPECT_LE(rates.velocity, 1 + 1e-6);
    EXPECT_LE(rates.acceleration, 1 + 1e-6);
    EXPECT_LE(rates.jerk, 1 + 1e-6);
    const KDL::Chain with_first = WithPayload(arm.kdl, first);
    const KDL::Chain with_second = WithPayload(arm.kdl, second);
    const long n = static_cast<long>(t.size());
    const long picked_up =
        static_cast<long>(result->segments.size() > 1 ? result->segments[1].first_index : n);
    const SegmentReport& corner = result->segments[0];
    const bool blended_pickup = corner.blend.blended;
    const long first_until = blended_pickup ? corner.blend.end_index : picked_up + 1;
    const long second_from = blended_pickup ? corner.blend.start_index : picked_up - 2;
    const double ratio =
        KdlTorqueRatio(arm.robot, t, MotionDefaults::kSampleTime, limits, [&](long k) {
          std::vector<const KDL::Chain*> carried_at;
          if (k <= first_until) carried_at.push_back(&with_first);
          if (k >= second_from) carried_at.push_back(&with_second);
          return carried_at;
        });
    worst = std::max(worst, ratio);
    EXPECT_LE(ratio, 1 + 1e-6);
    if (HasFailure()) return;
  }
  std::printf(
      "[ figures  ] %d programs, %d ok (%d slowed somewhere, %d corners blended); worst torque "
      "%.4f x its limit by KDL\n",
      programs, ok, slowed, blended, worst);
  for (const auto& [code, count] : refusals) {
    std::printf("[ figures  ] refused: %s x %d\n", code.c_str(), count);
  }
  EXPECT_GT(ok, programs / 3);
}

}  // namespace
}  // namespace motion
