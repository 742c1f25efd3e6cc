// ComputeIk and CheckReachability over real gRPC. The reference is core's
// SolveIk called in the test on the same inputs (the solver is
// deterministic: with a wall-time budget far beyond what a solve needs, the
// same request must give the same joints bit for bit), and the returned
// joints are judged by an FK computed in the test, not by the residuals the
// service reports.

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Strict success (design.md): |dp| <= 1e-5 m, rotation <= 1e-5 rad.
constexpr double kStrict = 1e-5;
// A wall-time budget no solve in these tests comes near, so only the
// iteration budget (deterministic) can end a search.
constexpr double kGenerousTimeout = 2.0;

v1::RobotRef ById(const std::string& robot_id) {
  v1::RobotRef ref;
  ref.set_robot_id(robot_id);
  return ref;
}

std::vector<double> Std(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }
template <typename Repeated>
std::vector<double> Std(const Repeated& values) {
  return {values.begin(), values.end()};
}

// The wire result equals core's, field by field, joints bit for bit.
::testing::AssertionResult SameAsCore(const v1::IkResult& wire,
                                      const absl::StatusOr<motion::IkResult>& core) {
  if (!core.ok()) return ::testing::AssertionFailure() << "core: " << core.status();
  std::string diff;
  if (wire.ok() != core->ok) diff += " ok";
  if (wire.outcome() != motion::IkOutcomeName(core->outcome)) {
    diff += " outcome(" + wire.outcome() + " vs " + motion::IkOutcomeName(core->outcome) + ")";
  }
  if (Std(wire.joints()) != Std(core->joints)) diff += " joints";
  if (wire.iterations() != core->iterations) diff += " iterations";
  if (wire.attempts() != core->attempts) diff += " attempts";
  if (wire.position_error() != core->position_error) diff += " position_error";
  if (wire.orientation_error() != core->orientation_error) diff += " orientation_error";
  if (CodesOf(wire.diagnostics()) != CodesOf(core->diagnostics)) diff += " diagnostic codes";
  if (!diff.empty()) {
    return ::testing::AssertionFailure()
           << "differs from core in:" << diff << "\n  wire: " << wire.ShortDebugString();
  }
  return ::testing::AssertionSuccess();
}

// FK(joints) * tool reaches `target` strictly and the joints are in limits.
::testing::AssertionResult Reaches(CoreRobot& core, const v1::IkResult& result,
                                   const v1::Pose& target, const v1::Pose* tool = nullptr) {
  const std::vector<double> q = Std(result.joints());
  if (!core.WithinLimits(q)) return ::testing::AssertionFailure() << "joints outside limits";
  Eigen::Isometry3d tcp = core.Fk(q);
  if (tool) tcp = tcp * ToIsometry(*tool);
  const Eigen::Isometry3d goal = ToIsometry(target);
  const double dp = (tcp.translation() - goal.translation()).norm();
  const double dr = AngleBetween(tcp.linear(), goal.linear());
  if (dp > kStrict || dr > kStrict) {
    return ::testing::AssertionFailure()
           << "FK misses the target by " << dp << " m, " << dr << " rad";
  }
  return ::testing::AssertionSuccess();
}

bool HasDiagnostic(const v1::IkResult& result, v1::DiagnosticCode code, v1::Severity severity) {
  for (const auto& d : result.diagnostics()) {
    if (d.code() == code && d.severity() == severity && !d.message().empty()) return true;
  }
  return false;
}

// A pose `distance` m from the origin in a random direction, random orientation.
v1::Pose FarPose(std::mt19937& rng, double distance) {
  std::normal_distribution<double> n(0.0, 1.0);
  const Eigen::Vector3d direction = Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
  t.translation() = distance * direction;
  return WirePose(t);
}

class IkServiceTest : public ::testing::Test {
 protected:
  std::string Register(const std::string& file) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    return response.robot_id();
  }

  static v1::ComputeIkRequest IkRequest(const std::string& robot_id, const v1::Pose& target,
                                        const std::vector<double>& seed,
                                        const std::string& solver = "",
                                        const v1::Pose* tool = nullptr) {
    v1::ComputeIkRequest request;
    *request.mutable_robot() = ById(robot_id);
    *request.mutable_target() = target;
    for (double v : seed) request.add_seed(v);
    if (tool) *request.mutable_tool() = *tool;
    request.mutable_options()->set_solver(solver);
    request.mutable_options()->set_timeout(kGenerousTimeout);
    return request;
  }

  static motion::IkOptions CoreOptions(
      motion::IkSolverKind solver = motion::IkSolverKind::kLevenbergMarquardt) {
    motion::IkOptions options;
    options.solver = solver;
    options.timeout = kGenerousTimeout;
    return options;
  }

  v1::IkResult Ik(const v1::ComputeIkRequest& request) {
    v1::IkResult result;
    const grpc::Status status = stubs_.ComputeIk(request, &result);
    EXPECT_TRUE(status.ok()) << Describe(status);
    return result;
  }

  grpc::Status IkStatus(const v1::ComputeIkRequest& request) {
    v1::IkResult result;
    return stubs_.ComputeIk(request, &result);
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel()};
  const std::string ur5_id_ = Register("ur5.urdf");
  const std::string panda_id_ = Register("panda.urdf");
  CoreRobot ur5_{ReadRobot("ur5.urdf")};
  CoreRobot panda_{ReadRobot("panda.urdf")};
};

// ------------------------------------------------------------ ComputeIk --

TEST_F(IkServiceTest, ComputeIkEqualsCoreSolveIkBitForBit) {
  std::mt19937 rng(31337);
  std::normal_distribution<double> noise(0.0, 0.15);
  const v1::Pose tool = WirePose(0.01, -0.02, 0.12, 0.1, 0.2, -0.1, 0.97);
  for (auto [robot_id, core] : {std::pair{ur5_id_, &ur5_}, std::pair{panda_id_, &panda_}}) {
    SCOPED_TRACE(robot_id);
    for (int sample = 0; sample < 24; ++sample) {
      SCOPED_TRACE(sample);
      const std::vector<double> q = core->RandomJoints(rng);
      const bool with_tool = sample % 3 == 0;
      const v1::Pose target = WirePose(with_tool ? core->Fk(q) * ToIsometry(tool) : core->Fk(q));
      // Half from the mid-range default seed, half from a seed near the answer.
      std::vector<double> seed;
      if (sample % 2 == 1) {
        seed = q;
        for (double& v : seed) v += noise(rng);
      }
      const v1::IkResult wire =
          Ik(IkRequest(robot_id, target, seed, "", with_tool ? &tool : nullptr));
      EXPECT_TRUE(SameAsCore(
          wire, core->SolveIk(target, seed, CoreOptions(), with_tool ? &tool : nullptr)));
    }
  }
}

TEST_F(IkServiceTest, ReturnedJointsReachTheTargetByFk) {
  std::mt19937 rng(4242);
  const v1::Pose tool = WirePose(0.0, 0.0, 0.15, 0.0, 0.0, 0.0, 1.0);
  for (auto [robot_id, core] : {std::pair{ur5_id_, &ur5_}, std::pair{panda_id_, &panda_}}) {
    SCOPED_TRACE(robot_id);
    for (int sample = 0; sample < 25; ++sample) {
      SCOPED_TRACE(sample);
      const bool with_tool = sample % 2 == 0;
      const std::vector<double> q = core->RandomJoints(rng);
      const v1::Pose target = WirePose(with_tool ? core->Fk(q) * ToIsometry(tool) : core->Fk(q));
      const v1::IkResult result =
          Ik(IkRequest(robot_id, target, {}, "", with_tool ? &tool : nullptr));
      ASSERT_TRUE(result.ok()) << result.ShortDebugString();
      EXPECT_EQ(result.outcome(), "ok");
      ASSERT_EQ(result.joints_size(), core->dof());
      EXPECT_TRUE(Reaches(*core, result, target, with_tool ? &tool : nullptr));
      EXPECT_LE(result.position_error(), kStrict);
      EXPECT_LE(result.orientation_error(), kStrict);
    }
  }
}

TEST_F(IkServiceTest, KdlBaselinesAreSelectableByName) {
  std::mt19937 rng(77);
  std::normal_distribution<double> noise(0.0, 0.05);
  int differs_from_lm = 0, kdl_solved = 0;
  for (const auto& [name, kind] :
       {std::pair{std::string("kdl_nr_jl"), motion::IkSolverKind::kKdlNrJl},
        std::pair{std::string("kdl_lma"), motion::IkSolverKind::kKdlLma}}) {
    SCOPED_TRACE(name);
    for (int sample = 0; sample < 10; ++sample) {
      const std::vector<double> q = ur5_.RandomJoints(rng);
      std::vector<double> seed = q;
      for (double& v : seed) v += noise(rng);
      const v1::Pose target = WirePose(ur5_.Fk(q));
      const v1::IkResult kdl = Ik(IkRequest(ur5_id_, target, seed, name));
      EXPECT_TRUE(SameAsCore(kdl, ur5_.SolveIk(target, seed, CoreOptions(kind))));
      EXPECT_EQ(kdl.attempts(), 1) << "a KDL baseline is one call";
      if (kdl.ok()) {
        ++kdl_solved;
        EXPECT_TRUE(Reaches(ur5_, kdl, target));
      }
      const v1::IkResult lm = Ik(IkRequest(ur5_id_, target, seed, "lm"));
      EXPECT_TRUE(SameAsCore(lm, ur5_.SolveIk(target, seed, CoreOptions())));
      if (Std(lm.joints()) != Std(kdl.joints())) ++differs_from_lm;
      // "lm" names the default solver: the same answer as "".
      EXPECT_EQ(Std(Ik(IkRequest(ur5_id_, target, seed, "")).joints()), Std(lm.joints()));
    }
  }
  // The comparison discriminates: the baselines do not land on the same bits.
  EXPECT_GT(differs_from_lm, 10);
  // From a seed this close both KDL solvers converge most of the time.
  EXPECT_GE(kdl_solved, 10);
}

TEST_F(IkServiceTest, UnreachableTargetIsAResultNotAnError) {
  std::mt19937 rng(8);
  for (int sample = 0; sample < 5; ++sample) {
    const v1::Pose target = FarPose(rng, 2.0 + sample);  // UR5 reaches < 1 m
    v1::IkResult result;
    const grpc::Status status = stubs_.ComputeIk(IkRequest(ur5_id_, target, {}), &result);
    ASSERT_TRUE(status.ok()) << Describe(status);
    EXPECT_FALSE(result.ok());
    EXPECT_EQ(result.outcome(), "unreachable");
    EXPECT_TRUE(HasDiagnostic(result, v1::TARGET_UNREACHABLE, v1::SEVERITY_ERROR))
        << result.ShortDebugString();
    EXPECT_GT(result.position_error(), 0.5);
    EXPECT_TRUE(SameAsCore(result, ur5_.SolveIk(target, {}, CoreOptions())));
  }
}

TEST_F(IkServiceTest, NaNTargetIsInvalidArgument) {
  const v1::Pose target = WirePose(0.4, kNaN, 0.3, 0, 1, 0, 0);
  EXPECT_TRUE(
      IsInvalidArgument(IkStatus(IkRequest(ur5_id_, target, {})), "target.position", {"finite"}));
  const v1::Pose bad_rotation = WirePose(0.4, 0.1, 0.3, 0, kNaN, 0, 0);
  EXPECT_TRUE(IsInvalidArgument(IkStatus(IkRequest(ur5_id_, bad_rotation, {})),
                                "target.orientation", {"finite"}));
}

TEST_F(IkServiceTest, ZeroQuaternionIsInvalidArgument) {
  const v1::Pose target = WirePose(0.4, 0.1, 0.3, 0, 0, 0, 0);
  EXPECT_TRUE(IsInvalidArgument(IkStatus(IkRequest(ur5_id_, target, {})), "target.orientation",
                                {"quaternion"}));
  v1::ComputeIkRequest no_target = IkRequest(ur5_id_, target, {});
  no_target.clear_target();  // an absent target is the zero quaternion too
  EXPECT_TRUE(IsInvalidArgument(IkStatus(no_target), "target.orientation", {"quaternion"}));
}

TEST_F(IkServiceTest, WrongSeedLengthIsInvalidArgument) {
  const v1::Pose target = WirePose(ur5_.Fk({0.1, -1.2, 1.3, -1.5, -1.4, 0.2}));
  EXPECT_TRUE(IsInvalidArgument(IkStatus(IkRequest(ur5_id_, target, {0.1, 0.2, 0.3, 0.4, 0.5})),
                                "seed", {"6", "5"}));
  EXPECT_TRUE(IsInvalidArgument(IkStatus(IkRequest(panda_id_, target, std::vector<double>(6))),
                                "seed", {"7", "6"}));
}

TEST_F(IkServiceTest, NegativeToleranceIsInvalidArgument) {
  const v1::Pose target = WirePose(ur5_.Fk({0.1, -1.2, 1.3, -1.5, -1.4, 0.2}));
  v1::ComputeIkRequest request = IkRequest(ur5_id_, target, {});
  request.mutable_options()->set_position_tolerance(-1e-4);
  EXPECT_TRUE(
      IsInvalidArgument(IkStatus(request), "options.position_tolerance", {"positive", "-0.0001"}));
  request = IkRequest(ur5_id_, target, {});
  request.mutable_options()->set_orientation_tolerance(-0.5);
  EXPECT_TRUE(
      IsInvalidArgument(IkStatus(request), "options.orientation_tolerance", {"positive", "-0.5"}));
}

TEST_F(IkServiceTest, UnknownSolverNameIsInvalidArgument) {
  const v1::Pose target = WirePose(ur5_.Fk({0.1, -1.2, 1.3, -1.5, -1.4, 0.2}));
  EXPECT_TRUE(IsInvalidArgument(IkStatus(IkRequest(ur5_id_, target, {}, "trac_ik")),
                                "options.solver", {"trac_ik", "kdl_nr_jl"}));
}

// ---------------------------------------------------- CheckReachability --

TEST_F(IkServiceTest, ThousandTargetBatchIsInInputOrderAndEqualsCore) {
  std::mt19937 rng(1000);
  const std::set<int> unreachable = {0, 7, 123, 250, 251, 499, 500, 641, 777, 998, 999};
  const std::vector<double> seed = {0.1, -1.2, 1.3, -1.5, -1.4, 0.2};
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = ById(ur5_id_);
  for (double v : seed) request.add_seed(v);
  request.mutable_options()->set_timeout(kGenerousTimeout);
  for (int i = 0; i < 1000; ++i) {
    *request.add_targets() = unreachable.count(i) ? FarPose(rng, 1.5 + 0.001 * i)
                                                  : WirePose(ur5_.Fk(ur5_.RandomJoints(rng)));
  }
  v1::CheckReachabilityResponse response;
  const grpc::Status status = stubs_.CheckReachability(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.results_size(), 1000);

  std::set<int> flagged;
  for (int i = 0; i < 1000; ++i) {
    SCOPED_TRACE(i);
    const v1::IkResult& result = response.results(i);
    // Result i belongs to target i: core on target i gives the same bits.
    EXPECT_TRUE(SameAsCore(result, ur5_.SolveIk(request.targets(i), seed, CoreOptions())));
    if (!result.ok()) {
      flagged.insert(i);
      EXPECT_EQ(result.outcome(), "unreachable");
      EXPECT_TRUE(HasDiagnostic(result, v1::TARGET_UNREACHABLE, v1::SEVERITY_ERROR));
    } else {
      EXPECT_TRUE(Reaches(ur5_, result, request.targets(i)));
    }
  }
  EXPECT_EQ(flagged, unreachable);
}

TEST_F(IkServiceTest, SeedFromPreviousFollowsAPathContinuously) {
  // A 0.3 m straight line, 3 mm apart, fixed orientation, from FK(q0).
  const std::vector<double> q0 = {0.3, -1.2, 1.5, -1.8, -1.5, 0.4};
  const Eigen::Isometry3d start = ur5_.Fk(q0);
  const Eigen::Vector3d direction = Eigen::Vector3d(0.2, 1.0, -0.3).normalized();
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = ById(ur5_id_);
  for (double v : q0) request.add_seed(v);
  request.mutable_options()->set_seed_from_previous(true);
  request.mutable_options()->set_timeout(kGenerousTimeout);
  constexpr int kTargets = 100;
  for (int i = 1; i <= kTargets; ++i) {
    Eigen::Isometry3d t = start;
    t.translation() += 0.003 * i * direction;
    *request.add_targets() = WirePose(t);
  }
  v1::CheckReachabilityResponse response;
  const grpc::Status status = stubs_.CheckReachability(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.results_size(), kTargets);

  std::vector<double> previous = q0;
  double largest_step = 0.0;
  for (int i = 0; i < kTargets; ++i) {
    SCOPED_TRACE(i);
    const v1::IkResult& result = response.results(i);
    ASSERT_TRUE(result.ok()) << result.ShortDebugString();
    EXPECT_TRUE(Reaches(ur5_, result, request.targets(i)));
    // Core, chained the same way: target i seeded with answer i-1.
    EXPECT_TRUE(SameAsCore(result, ur5_.SolveIk(request.targets(i), previous, CoreOptions())));
    const std::vector<double> q = Std(result.joints());
    for (int j = 0; j < 6; ++j) largest_step = std::max(largest_step, std::abs(q[j] - previous[j]));
    previous = q;
  }
  // 3 mm of TCP motion moves no UR5 joint far away from a singularity; a
  // branch change (elbow, wrist flip) would jump by radians.
  EXPECT_LT(largest_step, 0.05);
}

TEST_F(IkServiceTest, BatchOverTheTargetLimitIsInvalidArgument) {
  auto options = TestServer::DefaultOptions();
  options.limits.max_batch_targets = 10;
  TestServer small(options);
  Stubs stubs(small.NewChannel());
  v1::CheckReachabilityRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("ur5.urdf"));
  request.mutable_options()->set_timeout(kGenerousTimeout);
  std::mt19937 rng(10);
  for (int i = 0; i < 11; ++i) *request.add_targets() = WirePose(ur5_.Fk(ur5_.RandomJoints(rng)));
  v1::CheckReachabilityResponse response;
  EXPECT_TRUE(
      IsInvalidArgument(stubs.CheckReachability(request, &response), "targets", {"11", "10"}));
  EXPECT_EQ(response.results_size(), 0);

  // At the limit the same server answers.
  request.mutable_targets()->RemoveLast();
  const grpc::Status status = stubs.CheckReachability(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(response.results_size(), 10);
}

TEST_F(IkServiceTest, EmptyBatchIsInvalidArgument) {
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = ById(ur5_id_);
  v1::CheckReachabilityResponse response;
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.CheckReachability(request, &response), "targets", {"empty"}));
}

TEST_F(IkServiceTest, MalformedTargetInABatchIsNamedByIndex) {
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = ById(ur5_id_);
  std::mt19937 rng(3);
  for (int i = 0; i < 6; ++i) *request.add_targets() = WirePose(ur5_.Fk(ur5_.RandomJoints(rng)));
  request.mutable_targets(3)->mutable_position()->set_z(kNaN);
  v1::CheckReachabilityResponse response;
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response), "targets[3].position",
                                {"finite"}));
  EXPECT_EQ(response.results_size(), 0);
}

}  // namespace
}  // namespace motiond_test
