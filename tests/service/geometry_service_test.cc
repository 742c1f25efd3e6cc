// Geometry and Info over real gRPC: CheckTrajectory finds nothing wrong with
// a trajectory motiond planned and names the joint and point of one sample
// moved to break a velocity limit (the limit read from the URDF text);
// ResampleTrajectory reproduces a cubic on a new grid with its exact
// derivatives and interpolates at its knots; GetServerInfo reports the
// bounds this server was started with.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "motion/v1/geometry.grpc.pb.h"
#include "motion/v1/info.grpc.pb.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

class GeometryServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto options = TestServer::DefaultOptions();
    options.limits.path.max_points = 60000;  // reported by GetServerInfo below
    server_ = std::make_unique<TestServer>(options);
    auto robot = server_->server().registry().Register(ReadRobot("ur5.urdf"));
    ASSERT_TRUE(robot.ok());
    robot_id_ = robot->robot_id;
    channel_ = server_->NewChannel();
    geometry_ = v1::Geometry::NewStub(channel_);
  }

  grpc::Status Check(const v1::CheckTrajectoryRequest& request, v1::CheckTrajectoryResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return geometry_->CheckTrajectory(&context, request, out);
  }
  grpc::Status Resample(const v1::ResampleTrajectoryRequest& request,
                        v1::ResampleTrajectoryResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return geometry_->ResampleTrajectory(&context, request, out);
  }

  // A planned UR5 move's samples as a CheckTrajectoryRequest.
  v1::CheckTrajectoryRequest PlannedTrajectory(double* duration) {
    Stubs stubs(channel_);
    const PlanPathCall call = CallPlanPath(stubs.planner(), SlowUr5MoveJ(robot_id_, 0.004));
    EXPECT_TRUE(call.status.ok()) << Describe(call.status);
    v1::CheckTrajectoryRequest request;
    request.mutable_robot()->set_robot_id(robot_id_);
    for (const v1::PlanPathResponse& m : call.messages) {
      if (!m.has_chunk()) continue;
      request.mutable_time()->Add(m.chunk().time().begin(), m.chunk().time().end());
      request.mutable_positions()->Add(m.chunk().positions().begin(), m.chunk().positions().end());
    }
    *duration = call.summary() ? call.summary()->duration() : -1;
    return request;
  }

  std::unique_ptr<TestServer> server_;
  std::string robot_id_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Geometry::Stub> geometry_;
};

TEST_F(GeometryServiceTest, APlannedTrajectoryPassesCheckTrajectory) {
  double duration = 0;
  const v1::CheckTrajectoryRequest request = PlannedTrajectory(&duration);
  ASSERT_GT(request.time_size(), 100);
  v1::CheckTrajectoryResponse response;
  const grpc::Status status = Check(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_TRUE(response.ok()) << response.ShortDebugString().substr(0, 500);
  EXPECT_EQ(response.diagnostics_size(), 0);
  EXPECT_NEAR(response.cycle_time(), duration, 1e-9);
  EXPECT_NEAR(response.sample_time(), 0.004, 1e-12);
  EXPECT_LE(response.max_joint_velocity_ratio(), 1 + 1e-6);
  EXPECT_LE(response.max_joint_acceleration_ratio(), 1 + 1e-6);
  EXPECT_LE(response.max_joint_jerk_ratio(), 1 + 1e-6);
  EXPECT_GT(response.max_joint_velocity_ratio(), 0.0);
}

TEST_F(GeometryServiceTest, OneSampleMovedPastAVelocityLimitIsNamedByJointAndPoint) {
  double duration = 0;
  v1::CheckTrajectoryRequest request = PlannedTrajectory(&duration);
  // The third moving joint of the chain, its velocity limit from the URDF.
  const int dof = 6, j = 2;
  const std::string name = "elbow_joint";
  const UrdfText urdf = ReadUrdfText(ReadRobot("ur5.urdf"));
  ASSERT_EQ(urdf.joints.count(name), 1u);
  const double limit = urdf.joints.at(name).velocity;
  ASSERT_GT(limit, 0);
  const int m = request.time_size() / 2;
  const double v = (request.positions(m * dof + j) - request.positions((m - 1) * dof + j)) / 0.004;
  // Moved in its direction of travel by twice what the limit allows in one
  // sample: the difference into sample m is then the worst.
  request.set_positions(m * dof + j,
                        request.positions(m * dof + j) + (v >= 0 ? 1 : -1) * 2 * limit * 0.004);
  v1::CheckTrajectoryResponse response;
  const grpc::Status status = Check(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_FALSE(response.ok());
  bool named = false;
  for (const v1::Diagnostic& d : response.diagnostics()) {
    if (d.code() != v1::VELOCITY_LIMIT) continue;
    EXPECT_EQ(d.joint_name(), name);
    EXPECT_EQ(d.point_index(), m);
    EXPECT_NEAR(d.limit(), limit, 1e-12);
    named = true;
  }
  EXPECT_TRUE(named) << response.ShortDebugString().substr(0, 800);
  EXPECT_GT(response.max_joint_velocity_ratio(), 2.0);
}

TEST_F(GeometryServiceTest, BadTrajectoriesAreRefusedNamingTheField) {
  v1::CheckTrajectoryRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  v1::CheckTrajectoryResponse response;
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "time", {"no samples"}));
  for (double t : {0.0, 0.1, 0.1}) request.add_time(t);
  for (int i = 0; i < 18; ++i) request.add_positions(0.1);
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "time[2]", {"does not increase"}));
  request.set_time(2, 0.2);
  request.add_positions(0.1);
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "positions", {"19 values"}));
  request.mutable_positions()->RemoveLast();
  request.set_positions(7, std::nan(""));
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "positions[7]", {"not finite"}));
  request.set_positions(7, 0.1);
  request.set_time(1, 0.13);
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "time[1]", {"uniform grid"}));

  v1::ResampleTrajectoryRequest resample;
  resample.mutable_robot()->set_robot_id(robot_id_);
  for (double t : {0.0, 1.0}) resample.add_time(t);
  for (int i = 0; i < 12; ++i) resample.add_positions(0.1);
  v1::ResampleTrajectoryResponse resampled;
  EXPECT_TRUE(IsInvalidArgument(Resample(resample, &resampled), "sample_time", {"at least"}));
  resample.set_sample_time(1e-4);
  resample.set_time(1, 100.0);  // a million samples
  EXPECT_TRUE(IsInvalidArgument(Resample(resample, &resampled), "sample_time", {"limit"}));
}

TEST_F(GeometryServiceTest, ResampleReproducesACubicAndItsDerivatives) {
  // Every joint on its own cubic, sampled unevenly over 1.5 s.
  auto q = [](int j, double t) { return 0.1 * j + t * (0.5 - j * 0.1 + t * (0.3 - 0.2 * t)); };
  auto qd = [](int j, double t) { return 0.5 - j * 0.1 + t * (0.6 - 0.6 * t); };
  auto qdd = [](double t) { return 0.6 - 1.2 * t; };
  v1::ResampleTrajectoryRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  for (double t : {0.0, 0.2, 0.25, 0.6, 0.9, 1.2, 1.5}) {
    request.add_time(t);
    for (int j = 0; j < 6; ++j) request.add_positions(q(j, t));
  }
  request.set_sample_time(0.01);
  v1::ResampleTrajectoryResponse response;
  const grpc::Status status = Resample(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.time_size(), 151);
  ASSERT_EQ(response.positions_size(), 151 * 6);
  for (int k = 0; k < response.time_size(); ++k) {
    const double t = response.time(k);
    ASSERT_NEAR(t, 0.01 * k, 1e-12);
    for (int j = 0; j < 6; ++j) {
      EXPECT_NEAR(response.positions(k * 6 + j), q(j, t), 1e-11);
      EXPECT_NEAR(response.velocities(k * 6 + j), qd(j, t), 1e-10);
      EXPECT_NEAR(response.accelerations(k * 6 + j), qdd(t), 1e-9);
    }
  }
}

TEST_F(GeometryServiceTest, ResampledOnItsOwnGridAPlannedTrajectoryIsUnchanged) {
  double duration = 0;
  const v1::CheckTrajectoryRequest planned = PlannedTrajectory(&duration);
  v1::ResampleTrajectoryRequest request;
  *request.mutable_robot() = planned.robot();
  *request.mutable_time() = planned.time();
  *request.mutable_positions() = planned.positions();
  request.set_sample_time(0.004);
  v1::ResampleTrajectoryResponse response;
  const grpc::Status status = Resample(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.time_size(), planned.time_size());
  for (int i = 0; i < planned.positions_size(); ++i) {
    ASSERT_NEAR(response.positions(i), planned.positions(i), 1e-12) << i;
  }
}

TEST_F(GeometryServiceTest, GetServerInfoReportsThisServersBounds) {
  auto info = v1::Info::NewStub(channel_);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::GetServerInfoResponse response;
  const grpc::Status status = info->GetServerInfo(&context, {}, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_FALSE(response.version().empty());
#if defined(__aarch64__)
  EXPECT_EQ(response.build_architecture(), "aarch64");
#else
  EXPECT_EQ(response.build_architecture(), "x86_64");
#endif
  EXPECT_EQ(response.grpc_version(), grpc::Version());
  EXPECT_EQ(response.workers(), 2);
  bool points = false, check = false;
  for (const v1::ServerLimit& l : response.limits()) {
    if (l.name() == "max_trajectory_points") {
      points = true;
      EXPECT_EQ(l.value(), 60000);
      EXPECT_EQ(l.flag(), "--max_trajectory_points");
    }
  }
  for (const std::string& c : response.capabilities()) check |= c == "trajectory_check";
  EXPECT_TRUE(points);
  EXPECT_TRUE(check);
}

}  // namespace
}  // namespace motiond_test
