// Geometry's pose and joint-vector operations over real gRPC, against values
// derived by hand: a 90 degree roll is the quaternion (sin 45, 0, 0, cos 45)
// and the matrix with rows (1 0 0), (0 0 -1), (0 1 0); a tool 0.2 m long
// pointing down puts the flange 0.2 m above the TCP; distances to the UR5's
// limits come from the URDF text. Bad input (NaN, zero quaternion, a matrix
// that is not a rotation, radians that look like degrees, an empty batch)
// is refused naming the field.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "motion/v1/geometry.grpc.pb.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

const double kHalf = std::sqrt(0.5);

v1::Pose At(double x, double y, double z, double qx = 0, double qy = 0, double qz = 0,
            double qw = 1) {
  v1::Pose p;
  p.mutable_position()->set_x(x);
  p.mutable_position()->set_y(y);
  p.mutable_position()->set_z(z);
  p.mutable_orientation()->set_x(qx);
  p.mutable_orientation()->set_y(qy);
  p.mutable_orientation()->set_z(qz);
  p.mutable_orientation()->set_w(qw);
  return p;
}

::testing::AssertionResult PoseIs(const v1::Pose& p, double x, double y, double z, double qx,
                                  double qy, double qz, double qw) {
  const double got[] = {p.position().x(),    p.position().y(),    p.position().z(),
                        p.orientation().x(), p.orientation().y(), p.orientation().z(),
                        p.orientation().w()};
  const double want[] = {x, y, z, qx, qy, qz, qw};
  for (int i = 0; i < 7; ++i) {
    if (std::abs(got[i] - want[i]) > 1e-12) {
      return ::testing::AssertionFailure() << p.ShortDebugString() << " (entry " << i << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

class GeometryPoseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<TestServer>();
    auto robot = server_->server().registry().Register(ReadRobot("ur5.urdf"));
    ASSERT_TRUE(robot.ok());
    robot_id_ = robot->robot_id;
    geometry_ = v1::Geometry::NewStub(server_->NewChannel());
  }

  template <typename Request, typename Response, typename Method>
  grpc::Status Call(Method method, const Request& request, Response* response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return ((*geometry_).*method)(&context, request, response);
  }

  std::unique_ptr<TestServer> server_;
  std::string robot_id_;
  std::unique_ptr<v1::Geometry::Stub> geometry_;
};

TEST_F(GeometryPoseTest, ANinetyDegreeRollInEveryForm) {
  v1::ConvertPoseRequest request;
  v1::Rpy* rpy = request.mutable_pose()->mutable_rpy();
  rpy->set_roll(90);
  rpy->set_unit(v1::DEGREES);
  request.mutable_pose()->mutable_position()->set_z(0.5);
  request.set_rpy_unit(v1::RADIANS);
  v1::ConvertPoseResponse response;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ConvertPose, request, &response).ok());
  EXPECT_TRUE(PoseIs(response.pose(), 0, 0, 0.5, kHalf, 0, 0, kHalf));
  EXPECT_NEAR(response.rpy().roll(), M_PI / 2, 1e-12);
  EXPECT_NEAR(response.rpy().pitch(), 0, 1e-12);
  EXPECT_EQ(response.rpy().unit(), v1::RADIANS);
  const double rows[16] = {1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0.5, 0, 0, 0, 1};
  ASSERT_EQ(response.matrix().values_size(), 16);
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(response.matrix().values(i), rows[i], 1e-12) << i;

  // And back from the matrix, with the rpy in degrees.
  v1::ConvertPoseRequest back;
  for (double v : rows) back.mutable_matrix()->add_values(v);
  back.set_rpy_unit(v1::DEGREES);
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ConvertPose, back, &response).ok());
  EXPECT_TRUE(PoseIs(response.pose(), 0, 0, 0.5, kHalf, 0, 0, kHalf));
  EXPECT_NEAR(response.rpy().roll(), 90, 1e-10);
}

TEST_F(GeometryPoseTest, RpyRoundTripsThroughTheQuaternion) {
  v1::ConvertPoseRequest request;
  v1::Rpy* rpy = request.mutable_pose()->mutable_rpy();
  rpy->set_roll(30);
  rpy->set_pitch(-20);
  rpy->set_yaw(75);
  rpy->set_unit(v1::DEGREES);
  request.set_rpy_unit(v1::DEGREES);
  v1::ConvertPoseResponse response;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ConvertPose, request, &response).ok());
  EXPECT_NEAR(response.rpy().roll(), 30, 1e-10);
  EXPECT_NEAR(response.rpy().pitch(), -20, 1e-10);
  EXPECT_NEAR(response.rpy().yaw(), 75, 1e-10);
  // R = Rz(yaw) Ry(pitch) Rx(roll): its first column is
  // (cos y cos p, sin y cos p, -sin p).
  const double p = -20 * M_PI / 180, y = 75 * M_PI / 180;
  EXPECT_NEAR(response.matrix().values(0), std::cos(y) * std::cos(p), 1e-12);
  EXPECT_NEAR(response.matrix().values(4), std::sin(y) * std::cos(p), 1e-12);
  EXPECT_NEAR(response.matrix().values(8), -std::sin(p), 1e-12);
}

TEST_F(GeometryPoseTest, BadPosesAreRefusedNamingTheField) {
  v1::ConvertPoseResponse response;
  v1::ConvertPoseRequest request;
  request.set_rpy_unit(v1::RADIANS);
  *request.mutable_pose() = At(0, 0, 0, 0, 0, 0, 0);
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "pose.orientation", {"zero|length"}));
  *request.mutable_pose() = At(std::nan(""), 0, 0);
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "pose.position", {"finite"}));
  request.clear_pose();
  request.mutable_pose()->mutable_rpy()->set_roll(90);  // degrees meant, radians said
  request.mutable_pose()->mutable_rpy()->set_unit(v1::RADIANS);
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "pose.rpy.roll", {"more than a turn", "DEGREES"}));
  request.mutable_pose()->mutable_rpy()->set_unit(v1::ANGLE_UNIT_UNSPECIFIED);
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "pose.rpy.unit", {"RADIANS or DEGREES"}));
  request.clear_pose();
  for (double v :
       {1.1, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0}) {
    request.mutable_matrix()->add_values(v);
  }
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "matrix", {"orthonormal"}));
  request.mutable_matrix()->set_values(0, -1.0);  // a reflection
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::ConvertPose, request, &response),
                                "matrix", {"reflection"}));

  v1::ComposePosesRequest empty;
  v1::PoseResponse pose;
  EXPECT_TRUE(
      IsInvalidArgument(Call(&v1::Geometry::Stub::ComposePoses, empty, &pose), "poses", {"1 to"}));
}

TEST_F(GeometryPoseTest, ComposeInvertOffsetAndToolAsDerivedByHand) {
  // (1, 0, 0), then a quarter turn about z, then (1, 0, 0) in the turned
  // frame: at (1, 1, 0), turned.
  v1::ComposePosesRequest compose;
  *compose.add_poses() = At(1, 0, 0);
  *compose.add_poses() = At(0, 0, 0, 0, 0, kHalf, kHalf);
  *compose.add_poses() = At(1, 0, 0);
  v1::PoseResponse out;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ComposePoses, compose, &out).ok());
  EXPECT_TRUE(PoseIs(out.pose(), 1, 1, 0, 0, 0, kHalf, kHalf));

  // The inverse of (1, 2, 3) turned a quarter about z: R^T (-p) =
  // Rz(-90) (-1, -2, -3) = (-2, 1, -3), turned back.
  v1::InvertPoseRequest invert;
  *invert.mutable_pose() = At(1, 2, 3, 0, 0, kHalf, kHalf);
  ASSERT_TRUE(Call(&v1::Geometry::Stub::InvertPose, invert, &out).ok());
  EXPECT_TRUE(PoseIs(out.pose(), -2, 1, -3, 0, 0, -kHalf, kHalf));

  // A target at (0.5, 0, 0.3) in a frame at (1, 0, 0) turned a quarter
  // about z, offset 0.1 along an axis: WORLD x moves base x; TOOL x moves
  // along the target's own x, which the frame turned to base y.
  v1::ApplyOffsetRequest offset;
  *offset.mutable_target() = At(0.5, 0, 0.3);
  *offset.mutable_frame() = At(1, 0, 0, 0, 0, kHalf, kHalf);
  *offset.mutable_offset() = At(0.1, 0, 0);
  offset.set_offset_frame(v1::MotionSegment::WORLD);
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ApplyOffset, offset, &out).ok());
  EXPECT_TRUE(PoseIs(out.pose(), 1.1, 0.5, 0.3, 0, 0, kHalf, kHalf));
  offset.set_offset_frame(v1::MotionSegment::TOOL);
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ApplyOffset, offset, &out).ok());
  EXPECT_TRUE(PoseIs(out.pose(), 1, 0.6, 0.3, 0, 0, kHalf, kHalf));

  // A TCP pointing down (half a turn about x) at (0, 0, 0.5) in a frame at
  // (1, 0, 0), the tool 0.2 m along the flange's z: the flange is 0.2 m
  // above the TCP.
  v1::ApplyToolAndFrameRequest tool;
  *tool.mutable_target() = At(0, 0, 0.5, 1, 0, 0, 0);
  *tool.mutable_frame() = At(1, 0, 0);
  *tool.mutable_tool() = At(0, 0, 0.2);
  v1::ApplyToolAndFrameResponse placed;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::ApplyToolAndFrame, tool, &placed).ok());
  EXPECT_TRUE(PoseIs(placed.tcp(), 1, 0, 0.5, 1, 0, 0, 0));
  EXPECT_TRUE(PoseIs(placed.flange(), 1, 0, 0.7, 1, 0, 0, 0));
}

TEST_F(GeometryPoseTest, JointLimitsAgainstTheUrdfText) {
  const UrdfText urdf = ReadUrdfText(ReadRobot("ur5.urdf"));
  const UrdfJoint& elbow = urdf.joints.at("elbow_joint");
  v1::CheckJointLimitsRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  v1::JointTarget* inside = request.add_configurations();
  for (double v : {0.1, -1.0, 1.0, -1.0, 1.0, 0.0}) inside->add_values(v);
  v1::JointTarget* outside = request.add_configurations();
  for (double v : {0.1, -1.0, elbow.upper + 0.25, -1.0, 1.0, 0.0}) outside->add_values(v);
  v1::CheckJointLimitsResponse response;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::CheckJointLimits, request, &response).ok());
  ASSERT_EQ(response.results_size(), 2);
  EXPECT_TRUE(response.results(0).inside());
  EXPECT_FALSE(response.results(1).inside());
  const v1::JointLimitState& e = response.results(1).joints(2);
  EXPECT_EQ(e.joint(), "elbow_joint");
  EXPECT_FALSE(e.inside());
  EXPECT_NEAR(e.distance_to_nearest(), -0.25, 1e-12);
  EXPECT_EQ(e.nearest(), "upper");
  const v1::JointLimitState& in = response.results(0).joints(2);
  EXPECT_NEAR(in.distance_to_nearest(), std::min(1.0 - elbow.lower, elbow.upper - 1.0), 1e-12);

  request.clear_configurations();
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::CheckJointLimits, request, &response),
                                "configurations", {"1 to"}));
  request.add_configurations()->add_values(0.0);
  EXPECT_TRUE(IsInvalidArgument(Call(&v1::Geometry::Stub::CheckJointLimits, request, &response),
                                "configurations[0].values", {"expected 6 values"}));
}

TEST_F(GeometryPoseTest, AStraightElbowIsSingularABentOneIsNot) {
  v1::CheckSingularityRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  // Elbow straight (joint 3 at 0): the arm's reach is at its boundary and
  // the Jacobian loses a rank.
  for (double v : {0.3, -1.0, 0.0, -1.0, 1.2, 0.0}) request.add_joints(v);
  v1::CheckSingularityResponse response;
  ASSERT_TRUE(Call(&v1::Geometry::Stub::CheckSingularity, request, &response).ok());
  EXPECT_TRUE(response.near_singular());
  EXPECT_LT(response.sigma_min(), 1e-9);
  EXPECT_EQ(response.threshold(), 1e-3);
  request.set_joints(2, 1.5);
  ASSERT_TRUE(Call(&v1::Geometry::Stub::CheckSingularity, request, &response).ok());
  EXPECT_FALSE(response.near_singular());
  ASSERT_EQ(response.singular_values_size(), 6);
  double product = 1;
  for (double s : response.singular_values()) product *= s;
  EXPECT_NEAR(response.manipulability(), product, 1e-12);
  EXPECT_NEAR(response.condition_number(),
              response.singular_values(0) / response.singular_values(5), 1e-9);
  EXPECT_EQ(response.sigma_min(), response.singular_values(5));
}

// Kinematics with a work-object frame: a frame one metre along x, turned a
// quarter about z. FK answers the TCP in it as frame^-1 * tcp (worked out
// here from the base-frame TCP it also returns); IK and CheckReachability
// take targets in it and reach frame * target in the base frame.
TEST_F(GeometryPoseTest, KinematicsTakesAndAnswersPosesInAWorkObjectFrame) {
  Stubs stubs(server_->NewChannel());
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(robot_id_);
  for (double v : {0.3, -1.2, 1.4, -1.0, -1.5, 0.2}) fk.add_joints(v);
  *fk.mutable_frame() = At(1, 0, 0, 0, 0, kHalf, kHalf);
  v1::ComputeFkResponse pose;
  ASSERT_TRUE(stubs.ComputeFk(fk, &pose).ok());
  ASSERT_TRUE(pose.has_tcp_in_frame());
  // frame^-1 * p = Rz(-90) (p - (1, 0, 0)): (x, y) -> (y, -(x - 1)).
  const auto& base = pose.tcp().position();
  EXPECT_NEAR(pose.tcp_in_frame().position().x(), base.y(), 1e-12);
  EXPECT_NEAR(pose.tcp_in_frame().position().y(), -(base.x() - 1), 1e-12);
  EXPECT_NEAR(pose.tcp_in_frame().position().z(), base.z(), 1e-12);

  v1::ComputeIkRequest ik;
  ik.mutable_robot()->set_robot_id(robot_id_);
  *ik.mutable_target() = pose.tcp_in_frame();
  *ik.mutable_frame() = fk.frame();
  v1::IkResult solved;
  ASSERT_TRUE(stubs.ComputeIk(ik, &solved).ok());
  ASSERT_TRUE(solved.ok());
  v1::ComputeFkRequest check;
  check.mutable_robot()->set_robot_id(robot_id_);
  *check.mutable_joints() = solved.joints();
  v1::ComputeFkResponse reached;
  ASSERT_TRUE(stubs.ComputeFk(check, &reached).ok());
  EXPECT_NEAR(reached.tcp().position().x(), base.x(), 1e-6);
  EXPECT_NEAR(reached.tcp().position().y(), base.y(), 1e-6);
  EXPECT_NEAR(reached.tcp().position().z(), base.z(), 1e-6);

  v1::CheckReachabilityRequest batch;
  batch.mutable_robot()->set_robot_id(robot_id_);
  *batch.add_targets() = pose.tcp_in_frame();
  *batch.mutable_frame() = fk.frame();
  v1::CheckReachabilityResponse reachable;
  ASSERT_TRUE(stubs.CheckReachability(batch, &reachable).ok());
  ASSERT_EQ(reachable.results_size(), 1);
  EXPECT_TRUE(reachable.results(0).ok());
  // The same target read in the base frame is another pose, 1 m away: either
  // out of reach, or reached somewhere else.
  batch.clear_frame();
  ASSERT_TRUE(stubs.CheckReachability(batch, &reachable).ok());
  bool elsewhere = !reachable.results(0).ok();
  if (!elsewhere) {
    *check.mutable_joints() = reachable.results(0).joints();
    ASSERT_TRUE(stubs.ComputeFk(check, &reached).ok());
    elsewhere = std::hypot(reached.tcp().position().x() - base.x(),
                           reached.tcp().position().y() - base.y()) > 0.1;
  }
  EXPECT_TRUE(elsewhere) << "without the frame the batch reached the framed target";
}

}  // namespace
}  // namespace motiond_test
