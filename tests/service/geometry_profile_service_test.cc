// Geometry.ComputeProfile over real gRPC, against published numbers and a
// second method: the double-S examples 3.9 and 3.10 of Biagiotti &
// Melchiorri, "Trajectory Planning for Automatic Machines and Robots"
// (2008), the trapezoid's closed form, divided differences of the samples
// it returns, and the cycle time the planner gives a one-joint MoveJ.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "motion/v1/geometry.grpc.pb.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

class GeometryProfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto options = TestServer::DefaultOptions();
    options.limits.path.max_points = 50000;
    server_ = std::make_unique<TestServer>(options);
    channel_ = server_->NewChannel();
    geometry_ = v1::Geometry::NewStub(channel_);
  }

  grpc::Status Profile(const v1::ComputeProfileRequest& request, v1::ComputeProfileResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return geometry_->ComputeProfile(&context, request, out);
  }

  static v1::ComputeProfileRequest JerkLimited(double length, double v, double a, double j,
                                               double v0 = 0, double v1 = 0) {
    v1::ComputeProfileRequest r;
    r.set_profile(v1::PlanPathRequest::JERK_LIMITED);
    r.set_length(length);
    r.set_max_velocity(v);
    r.set_max_acceleration(a);
    r.set_max_jerk(j);
    r.set_start_velocity(v0);
    r.set_end_velocity(v1);
    return r;
  }

  static const v1::ProfilePhase& Phase(const v1::ComputeProfileResponse& r,
                                       const std::string& name) {
    for (const auto& p : r.phases()) {
      if (p.name() == name) return p;
    }
    ADD_FAILURE() << "no phase " << name;
    return r.phases(0);
  }

  std::unique_ptr<TestServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Geometry::Stub> geometry_;
};

// Example 3.9: q1 - q0 = 10, v0 = 1, v1 = 0, vmax = 5, amax = 10, jmax = 30.
// The book: Ta = 0.7333, Tv = 1.1433, Td = 0.8333, Tj1 = Tj2 = 0.3333,
// T = 2.7100, alim_a = 10, alim_d = -10, vlim = 5.
TEST_F(GeometryProfileTest, DoubleSMatchesBiagiottiExample39) {
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(JerkLimited(10, 5, 10, 30, 1, 0), &r).ok());
  EXPECT_NEAR(r.duration(), 2.7100, 1e-4);
  EXPECT_NEAR(r.peak_velocity(), 5, 1e-9);
  EXPECT_NEAR(r.peak_acceleration(), 10, 1e-9);
  EXPECT_NEAR(r.peak_deceleration(), 10, 1e-9);
  EXPECT_NEAR(r.peak_jerk(), 30, 1e-12);
  EXPECT_DOUBLE_EQ(r.stretch(), 1.0);
  ASSERT_EQ(r.phases_size(), 7);
  EXPECT_NEAR(Phase(r, "accel_ramp_up").duration(), 1.0 / 3, 1e-9);
  EXPECT_NEAR(Phase(r, "accel_ramp_up").jerk(), 30, 1e-12);
  EXPECT_NEAR(Phase(r, "accel_ramp_up").start_velocity(), 1, 1e-12);
  EXPECT_NEAR(Phase(r, "accel_hold").duration(), 0.7333 - 2.0 / 3, 1e-4);
  EXPECT_NEAR(Phase(r, "accel_hold").acceleration(), 10, 1e-9);
  EXPECT_NEAR(Phase(r, "accel_ramp_down").jerk(), -30, 1e-12);
  EXPECT_NEAR(Phase(r, "cruise").duration(), 1.1433, 1e-4);
  EXPECT_NEAR(Phase(r, "cruise").start_velocity(), 5, 1e-9);
  EXPECT_NEAR(Phase(r, "cruise").start_time(), 0.7333, 1e-4);
  EXPECT_NEAR(Phase(r, "decel_ramp_up").jerk(), -30, 1e-12);
  EXPECT_NEAR(Phase(r, "decel_hold").duration(), 0.8333 - 2.0 / 3, 1e-4);
  EXPECT_NEAR(Phase(r, "decel_hold").acceleration(), -10, 1e-9);
  EXPECT_NEAR(Phase(r, "decel_ramp_down").jerk(), 30, 1e-12);
  // The phases tile [0, T].
  double t = 0;
  for (const auto& p : r.phases()) {
    EXPECT_NEAR(p.start_time(), t, 1e-12) << p.name();
    t += p.duration();
  }
  EXPECT_NEAR(t, r.duration(), 1e-12);
  EXPECT_EQ(r.time_size(), 0);  // no sample_time, no samples
}

// Example 3.10: the same with vmax = 10: no cruise; the book gives
// Ta = 1.0747, Td = 1.1747, Tj1 = Tj2 = 0.3333, vlim = 8.4136, T = 2.2494.
TEST_F(GeometryProfileTest, DoubleSMatchesBiagiottiExample310) {
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(JerkLimited(10, 10, 10, 30, 1, 0), &r).ok());
  EXPECT_NEAR(r.duration(), 2.2494, 1e-4);
  EXPECT_NEAR(r.peak_velocity(), 8.4136, 1e-4);
  EXPECT_NEAR(Phase(r, "cruise").duration(), 0.0,
              1e-12);  // rounding: fused multiply-adds on aarch64
  EXPECT_NEAR(Phase(r, "accel_ramp_up").duration() * 2 + Phase(r, "accel_hold").duration(), 1.0747,
              1e-4);
  EXPECT_NEAR(Phase(r, "decel_ramp_up").duration() * 2 + Phase(r, "decel_hold").duration(), 1.1747,
              1e-4);
}

// The trapezoid in closed form: L = 1, v = 1, a = 2 -> Ta = Td = 0.5 (0.25
// each), cruise 0.5 at 1: T = 1.5. L = 1, v = 10, a = 1: a triangle
// peaking at sqrt(a L) = 1, T = 2.
TEST_F(GeometryProfileTest, TrapezoidMatchesItsClosedForm) {
  v1::ComputeProfileRequest request;
  request.set_profile(v1::PlanPathRequest::TRAPEZOID);
  request.set_length(1);
  request.set_max_velocity(1);
  request.set_max_acceleration(2);
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(request, &r).ok());
  EXPECT_NEAR(r.duration(), 1.5, 1e-12);
  ASSERT_EQ(r.phases_size(), 3);
  EXPECT_EQ(r.phases(0).name(), "accelerate");
  EXPECT_NEAR(r.phases(0).duration(), 0.5, 1e-12);
  EXPECT_NEAR(r.phases(0).acceleration(), 2, 1e-12);
  EXPECT_NEAR(r.phases(1).start_position(), 0.25, 1e-12);
  EXPECT_NEAR(r.phases(1).duration(), 0.5, 1e-12);
  EXPECT_NEAR(r.phases(2).acceleration(), -2, 1e-12);
  EXPECT_NEAR(r.phases(2).start_position(), 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(r.peak_jerk(), 0.0);

  request.set_max_velocity(10);
  request.set_max_acceleration(1);
  ASSERT_TRUE(Profile(request, &r).ok());
  EXPECT_NEAR(r.duration(), 2, 1e-12);
  EXPECT_NEAR(r.peak_velocity(), 1, 1e-12);
  EXPECT_NEAR(r.phases(1).duration(), 0.0, 1e-12);
}

// Samples: on the grid, from 0 to L, and their divided differences agree
// with the rates returned beside them (a second method), within the limits.
TEST_F(GeometryProfileTest, SamplesAreConsistentWithTheirRatesAndLimits) {
  v1::ComputeProfileRequest request = JerkLimited(0.8, 1.0, 2.0, 10.0);
  const double dt = 0.001;
  request.set_sample_time(dt);
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(request, &r).ok());
  const int n = r.time_size();
  ASSERT_GT(n, 100);
  ASSERT_EQ(r.position_size(), n);
  ASSERT_EQ(r.jerk_size(), n);
  EXPECT_DOUBLE_EQ(r.time(0), 0.0);
  EXPECT_DOUBLE_EQ(r.time(n - 1), r.duration());
  EXPECT_DOUBLE_EQ(r.position(0), 0.0);
  EXPECT_DOUBLE_EQ(r.position(n - 1), 0.8);
  double worst_v = 0, worst_a = 0;
  for (int k = 1; k + 1 < n - 1; ++k) {
    EXPECT_NEAR(r.time(k) - r.time(k - 1), dt, 1e-12);
    // Central differences: O(dt^2) error on rates bounded by the limits.
    const double v = (r.position(k + 1) - r.position(k - 1)) / (2 * dt);
    const double a = (r.position(k + 1) - 2 * r.position(k) + r.position(k - 1)) / (dt * dt);
    EXPECT_NEAR(v, r.velocity(k), 10.0 * dt * dt) << k;
    EXPECT_NEAR(a, r.acceleration(k), 10.0 * dt) << k;
    worst_v = std::max(worst_v, std::abs(v));
    worst_a = std::max(worst_a, std::abs(a));
    const double jerk = (r.acceleration(k + 1) - r.acceleration(k)) / dt;
    EXPECT_LE(std::abs(jerk), 10.0 * (1 + 1e-9)) << k;
    EXPECT_LE(std::abs(r.jerk(k)), 10.0 * (1 + 1e-12));
  }
  EXPECT_LE(worst_v, 1.0 + 1e-9);
  EXPECT_LE(worst_a, 2.0 + 1e-3);
  EXPECT_NEAR(worst_v, r.peak_velocity(), 1e-3);
}

// A rest-to-rest profile stretched to a duration: the double-S at a lower
// peak speed (acceleration and jerk within limits, ending exactly at L and
// T), the trapezoid played uniformly slower (stretch = T / fastest).
TEST_F(GeometryProfileTest, DurationStretchesRestToRestProfiles) {
  v1::ComputeProfileResponse fastest;
  ASSERT_TRUE(Profile(JerkLimited(1.0, 1.0, 2.0, 10.0), &fastest).ok());
  v1::ComputeProfileRequest request = JerkLimited(1.0, 1.0, 2.0, 10.0);
  request.set_duration(2 * fastest.duration());
  request.set_sample_time(0.002);
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(request, &r).ok());
  EXPECT_NEAR(r.duration(), 2 * fastest.duration(), 1e-9);
  EXPECT_LT(r.peak_velocity(), fastest.peak_velocity());
  EXPECT_LE(r.peak_acceleration(), 2.0 + 1e-12);
  EXPECT_DOUBLE_EQ(r.position(r.position_size() - 1), 1.0);
  // Covering L in T at a peak speed: L <= vlim T.
  EXPECT_LE(1.0, r.peak_velocity() * r.duration());

  request.set_profile(v1::PlanPathRequest::TRAPEZOID);
  v1::ComputeProfileResponse own, slow;
  v1::ComputeProfileRequest plain = request;
  plain.set_duration(0);
  ASSERT_TRUE(Profile(plain, &own).ok());
  request.set_duration(3 * own.duration());
  ASSERT_TRUE(Profile(request, &slow).ok());
  EXPECT_NEAR(slow.stretch(), 3, 1e-12);
  EXPECT_NEAR(slow.peak_velocity(), own.peak_velocity() / 3, 1e-12);
  EXPECT_NEAR(slow.phases(0).acceleration(), own.phases(0).acceleration() / 9, 1e-12);
  EXPECT_NEAR(slow.phases(0).duration(), own.phases(0).duration() * 3, 1e-12);
}

// on_grid ends the profile on a whole number of samples, as the planner
// ends every segment.
TEST_F(GeometryProfileTest, OnGridEndsOnAWholeNumberOfSamples) {
  v1::ComputeProfileRequest request = JerkLimited(0.37, 1.3, 2.9, 17.0);
  request.set_sample_time(0.004);
  request.set_on_grid(true);
  v1::ComputeProfileResponse r;
  ASSERT_TRUE(Profile(request, &r).ok());
  const double steps = r.duration() / 0.004;
  EXPECT_NEAR(steps, std::round(steps), 1e-9);
  EXPECT_GE(r.stretch(), 1.0);
  EXPECT_LT((r.stretch() - 1) * r.duration(), 0.004 * r.stretch());
  EXPECT_EQ(r.time_size(), static_cast<int>(std::round(steps)) + 1);
}

// The planner's own timing as a second method: a MoveJ of one joint of the
// planar 2R arm lasts what ComputeProfile gives that joint's distance with
// the joint's limits (read from GetRobot), on the plan's grid.
TEST_F(GeometryProfileTest, AOneJointMoveJLastsItsProfile) {
  Stubs stubs(channel_);
  v1::RegisterRobotResponse registered;
  ASSERT_TRUE(stubs.RegisterRobot(ReadRobot("planar_2r.urdf"), &registered).ok());
  const v1::JointInfo& joint = registered.info().joints(0);
  for (auto profile : {v1::PlanPathRequest::JERK_LIMITED, v1::PlanPathRequest::TRAPEZOID}) {
    v1::PlanPathRequest plan;
    plan.mutable_robot()->set_robot_id(registered.robot_id());
    plan.add_start_joints(0.1);
    plan.add_start_joints(0.2);
    plan.set_sample_time(0.004);
    plan.set_profile(profile);
    v1::MotionSegment* move = plan.add_segments();
    move->mutable_movej()->mutable_joints()->add_values(1.3);
    move->mutable_movej()->mutable_joints()->add_values(0.2);
    const PlanPathCall call = CallPlanPath(stubs.planner(), plan);
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    ASSERT_NE(call.summary(), nullptr);

    v1::ComputeProfileRequest request =
        JerkLimited(1.2, joint.max_velocity(), joint.max_acceleration(), joint.max_jerk());
    request.set_profile(profile);
    request.set_sample_time(0.004);
    request.set_on_grid(true);
    v1::ComputeProfileResponse r;
    ASSERT_TRUE(Profile(request, &r).ok());
    EXPECT_NEAR(r.duration(), call.summary()->duration(), 1e-9)
        << v1::PlanPathRequest::Profile_Name(profile);
  }
}

TEST_F(GeometryProfileTest, BadInputNamesTheField) {
  auto expect_invalid = [&](v1::ComputeProfileRequest request, const std::string& field,
                            const std::vector<std::string>& words) {
    v1::ComputeProfileResponse r;
    EXPECT_TRUE(IsInvalidArgument(Profile(request, &r), field, words))
        << request.ShortDebugString();
  };
  v1::ComputeProfileRequest good = JerkLimited(1, 1, 1, 1);
  v1::ComputeProfileRequest r = good;
  r.set_length(std::nan(""));
  expect_invalid(r, "length", {"finite"});
  r = good;
  r.set_length(-1);
  expect_invalid(r, "length", {"-1"});
  r = good;
  r.set_max_velocity(0);
  expect_invalid(r, "max_velocity", {"> 0"});
  r = good;
  r.set_max_acceleration(std::numeric_limits<double>::infinity());
  expect_invalid(r, "max_acceleration", {"finite"});
  r = good;
  r.set_max_jerk(0);
  expect_invalid(r, "max_jerk", {"> 0"});
  r = good;
  r.set_start_velocity(2);
  expect_invalid(r, "start_velocity", {"2"});
  r = good;
  r.set_length(0.01);
  r.set_start_velocity(1);
  expect_invalid(r, "end_velocity", {"cannot go"});
  r = good;
  r.set_duration(0.5);
  expect_invalid(r, "duration", {"shorter than the fastest"});
  r = good;
  r.set_duration(10);
  r.set_start_velocity(0.5);
  expect_invalid(r, "duration", {"rest to rest"});
  r = good;
  r.set_on_grid(true);
  expect_invalid(r, "on_grid", {"sample_time"});
  r = good;
  r.set_sample_time(-0.001);
  expect_invalid(r, "sample_time", {">= 0"});
  r = good;
  r.set_length(1000);
  r.set_sample_time(1e-5);
  expect_invalid(r, "sample_time", {"limit"});
  r = good;
  r.set_profile(static_cast<v1::PlanPathRequest::Profile>(7));
  expect_invalid(r, "profile", {"unknown"});
  // The trapezoid ignores max_jerk.
  r = good;
  r.set_profile(v1::PlanPathRequest::TRAPEZOID);
  r.set_max_jerk(0);
  v1::ComputeProfileResponse ok;
  EXPECT_TRUE(Profile(r, &ok).ok());
}

}  // namespace
}  // namespace motiond_test
