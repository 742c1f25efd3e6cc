// Malformed IK input is InvalidArgument naming the field: seed length and
// values, tolerances, budgets, modes, solver names; malformed poses are
// stopped earlier, by MakePose. A well-formed request never is.

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "core/ik/ik_options.h"
#include "ik_test_support.h"

namespace motion {
namespace {

using motion_test::kUr5;
using motion_test::LoadTestChain;
using motion_test::TestChain;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class IkInputValidationTest : public testing::Test {
 protected:
  void SetUp() override {
    chain_ = LoadTestChain(kUr5);
    ASSERT_NE(chain_.model, nullptr);
    // A reachable target: a valid request with these options is ok.
    target_ = Pose::FromIsometry(chain_.Fk(motion_test::Vec({0.3, -1.2, 1.3, -0.5, 1.0, 0.2})));
  }

  absl::StatusOr<IkResult> Solve(const std::vector<double>& seed, const IkOptions& options) {
    return SolveIk(*chain_.model, cache_.For(chain_.model), target_, Pose::Identity(), seed,
                   options);
  }

  // InvalidArgument whose message names `field`, for every solver kind.
  void ExpectInvalid(const std::vector<double>& seed, IkOptions options, const std::string& field) {
    for (IkSolverKind kind :
         {IkSolverKind::kLevenbergMarquardt, IkSolverKind::kKdlNrJl, IkSolverKind::kKdlLma}) {
      options.solver = kind;
      const absl::StatusOr<IkResult> r = Solve(seed, options);
      ASSERT_FALSE(r.ok()) << IkSolverName(kind) << ": expected an error naming " << field;
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
      EXPECT_NE(std::string(r.status().message()).find(field), std::string::npos)
          << IkSolverName(kind) << ": " << r.status();
    }
  }

  TestChain chain_;
  ChainDataCache cache_;
  Pose target_;
};

TEST_F(IkInputValidationTest, ValidRequestIsSolved) {
  for (IkSolverKind kind :
       {IkSolverKind::kLevenbergMarquardt, IkSolverKind::kKdlNrJl, IkSolverKind::kKdlLma}) {
    IkOptions options;
    options.solver = kind;
    const absl::StatusOr<IkResult> r =
        Solve({0.3, -1.2, 1.3, -0.5, 1.0, 0.2}, options);  // the seed is the answer
    ASSERT_TRUE(r.ok()) << IkSolverName(kind) << ": " << r.status();
    EXPECT_TRUE(r->ok) << IkSolverName(kind);
  }
}

TEST_F(IkInputValidationTest, WrongSeedLength) {
  ExpectInvalid({0.1, 0.2, 0.3, 0.4, 0.5}, {}, "seed");
  ExpectInvalid({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}, {}, "seed");
  ExpectInvalid({0.0}, {}, "seed");
}

TEST_F(IkInputValidationTest, NonFiniteSeedValue) {
  ExpectInvalid({0.1, kNaN, 0.3, 0.4, 0.5, 0.6}, {}, "seed[1]");
  ExpectInvalid({0.1, 0.2, 0.3, 0.4, 0.5, kInf}, {}, "seed[5]");
  ExpectInvalid({-kInf, 0.2, 0.3, 0.4, 0.5, 0.6}, {}, "seed[0]");
}

TEST_F(IkInputValidationTest, NegativeOrNonFiniteTolerance) {
  for (double bad : {-1e-5, -1.0, kNaN, kInf}) {
    IkOptions position;
    position.position_tolerance = bad;
    ExpectInvalid({}, position, "options.position_tolerance");
    IkOptions orientation;
    orientation.orientation_tolerance = bad;
    ExpectInvalid({}, orientation, "options.orientation_tolerance");
  }
}

TEST_F(IkInputValidationTest, ZeroOrNegativeIterationBudget) {
  for (int bad : {0, -1, std::numeric_limits<int>::min()}) {
    IkOptions options;
    options.max_iterations = bad;
    ExpectInvalid({}, options, "options.max_iterations");
  }
}

TEST_F(IkInputValidationTest, ZeroNegativeOrNonFiniteTimeout) {
  for (double bad : {0.0, -0.005, -kInf, kNaN, kInf}) {
    IkOptions options;
    options.timeout = bad;
    ExpectInvalid({}, options, "options.timeout");
  }
}

TEST_F(IkInputValidationTest, ZeroOrNegativeMaxSolutions) {
  for (int bad : {0, -3}) {
    IkOptions options;
    options.mode = IkMode::kAll;
    options.max_solutions = bad;
    ExpectInvalid({}, options, "options.max_solutions");
  }
}

// ik_solver.h: "InvalidArgument only for malformed input: ..., unknown mode".
TEST_F(IkInputValidationTest, UnknownModeValue) {
  IkOptions options;
  options.mode = static_cast<IkMode>(42);
  ExpectInvalid({}, options, "options.mode");
}

TEST_F(IkInputValidationTest, UnknownSolverKindValue) {
  IkOptions options;
  options.solver = static_cast<IkSolverKind>(42);
  const absl::StatusOr<IkResult> r = Solve({}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(std::string(r.status().message()).find("options.solver"), std::string::npos)
      << r.status();
}

TEST(IkSolverNameTest, ParsesTheDocumentedNames) {
  struct Case {
    const char* name;
    IkSolverKind kind;
  };
  for (const Case& c :
       {Case{"", IkSolverKind::kLevenbergMarquardt}, Case{"lm", IkSolverKind::kLevenbergMarquardt},
        Case{"kdl_nr_jl", IkSolverKind::kKdlNrJl}, Case{"kdl_lma", IkSolverKind::kKdlLma}}) {
    const absl::StatusOr<IkSolverKind> kind = ParseIkSolverKind(c.name);
    ASSERT_TRUE(kind.ok()) << c.name << ": " << kind.status();
    EXPECT_EQ(*kind, c.kind) << c.name;
  }
  for (IkSolverKind kind :
       {IkSolverKind::kLevenbergMarquardt, IkSolverKind::kKdlNrJl, IkSolverKind::kKdlLma}) {
    const absl::StatusOr<IkSolverKind> parsed = ParseIkSolverKind(IkSolverName(kind));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, kind);
  }
}

TEST(IkSolverNameTest, UnknownNameIsInvalidArgument) {
  for (const char* bad : {"foo", "trac_ik", "kdl_nr", "LM ", "kdl_lma\n"}) {
    const absl::StatusOr<IkSolverKind> kind = ParseIkSolverKind(bad);
    ASSERT_FALSE(kind.ok()) << bad;
    EXPECT_EQ(kind.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(kind.status().message());
    EXPECT_NE(message.find("options.solver"), std::string::npos) << message;
    EXPECT_NE(message.find(bad), std::string::npos) << message;
  }
}

// ------------------------------------------------------------ poses

TEST(IkTargetPoseTest, NonFinitePositionIsRejectedNamingTheField) {
  for (const Eigen::Vector3d& p :
       {Eigen::Vector3d(kNaN, 0, 0), Eigen::Vector3d(0, kInf, 0), Eigen::Vector3d(0, 0, -kInf)}) {
    const absl::StatusOr<Pose> pose = MakePose(p, 0, 0, 0, 1, "target");
    ASSERT_FALSE(pose.ok());
    EXPECT_EQ(pose.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(pose.status().message()).find("target.position"), std::string::npos)
        << pose.status();
  }
}

TEST(IkTargetPoseTest, NonFiniteOrZeroQuaternionIsRejectedNamingTheField) {
  const Eigen::Vector3d p(0.4, 0.1, 0.3);
  const double bad[][4] = {{kNaN, 0, 0, 1}, {0, 0, kInf, 1},  {0, 0, 0, kNaN},
                           {0, 0, 0, 0},    {1e-12, 0, 0, 0}, {0, -0.0, 0, 0}};
  for (const auto& q : bad) {
    const absl::StatusOr<Pose> pose = MakePose(p, q[0], q[1], q[2], q[3], "tool");
    ASSERT_FALSE(pose.ok()) << q[0] << " " << q[1] << " " << q[2] << " " << q[3];
    EXPECT_EQ(pose.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(pose.status().message()).find("tool.orientation"), std::string::npos)
        << pose.status();
  }
}

TEST(IkTargetPoseTest, NonUnitQuaternionIsNormalised) {
  const absl::StatusOr<Pose> pose = MakePose(Eigen::Vector3d(1, 2, 3), 0, 0, 3, 4, "target");
  ASSERT_TRUE(pose.ok()) << pose.status();
  EXPECT_NEAR(pose->orientation.x(), 0.0, 1e-15);
  EXPECT_NEAR(pose->orientation.z(), 0.6, 1e-15);
  EXPECT_NEAR(pose->orientation.w(), 0.8, 1e-15);
  EXPECT_EQ(pose->position, Eigen::Vector3d(1, 2, 3));
}

}  // namespace
}  // namespace motion
