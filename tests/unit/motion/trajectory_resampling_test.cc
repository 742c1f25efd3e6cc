// ResampleJointTrajectory against closed forms: a cubic polynomial sampled
// on an uneven grid is reproduced exactly (the not-a-knot spline is exact
// for cubics) with its exact first and second derivatives; a sine converges
// at the spline's fourth order; 3 and 2 samples give the parabola and the
// line through them; past the last sample the arm holds still.

#include "core/motion/trajectory_resampling.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace motion {
namespace {

// q(t) = c0 + c1 t + c2 t^2 + c3 t^3 and its derivatives.
struct Cubic {
  double c0, c1, c2, c3;
  double q(double t) const { return c0 + t * (c1 + t * (c2 + t * c3)); }
  double qd(double t) const { return c1 + t * (2 * c2 + 3 * c3 * t); }
  double qdd(double t) const { return 2 * c2 + 6 * c3 * t; }
};

TEST(TrajectoryResamplingTest, ACubicOnAnUnevenGridComesBackExactWithItsDerivatives) {
  // Two joints, two cubics; knots at uneven spacing from 0.3 s to 2.1 s.
  const Cubic a{0.1, -0.4, 1.3, -0.35}, b{-1.0, 0.2, -0.5, 0.12};
  const std::vector<double> time = {0.3, 0.41, 0.7, 0.74, 1.1, 1.5, 1.52, 1.9, 2.1};
  std::vector<double> positions;
  for (double t : time) {
    positions.push_back(a.q(t));
    positions.push_back(b.q(t));
  }
  auto out = ResampleJointTrajectory(2, time, positions, 0.05, 100000);
  ASSERT_TRUE(out.ok()) << out.status();
  // 1.8 s at 0.05 s: 36 intervals, the last sample exactly at 2.1 s.
  ASSERT_EQ(out->size(), 37u);
  for (std::size_t k = 0; k < out->size(); ++k) {
    const double t = out->time[k];
    EXPECT_NEAR(t, 0.3 + 0.05 * k, 1e-12);
    for (int j = 0; j < 2; ++j) {
      const Cubic& c = j == 0 ? a : b;
      EXPECT_NEAR(out->positions[2 * k + j], c.q(t), 1e-11) << "t " << t << " joint " << j;
      EXPECT_NEAR(out->velocities[2 * k + j], c.qd(t), 1e-10) << "t " << t << " joint " << j;
      EXPECT_NEAR(out->accelerations[2 * k + j], c.qdd(t), 1e-9) << "t " << t << " joint " << j;
    }
  }
}

// Largest position error of a resampled sine sampled every h.
double SineError(double h) {
  std::vector<double> time, positions;
  for (double t = 0; t <= 3.0 + 1e-12; t += h) {
    time.push_back(t);
    positions.push_back(std::sin(2.0 * t));
  }
  auto out = ResampleJointTrajectory(1, time, positions, 0.001, 100000);
  EXPECT_TRUE(out.ok()) << out.status();
  double worst = 0;
  for (std::size_t k = 0; k < out->size() && out->time[k] <= time.back(); ++k) {
    worst = std::max(worst, std::abs(out->positions[k] - std::sin(2.0 * out->time[k])));
  }
  return worst;
}

TEST(TrajectoryResamplingTest, ASineConvergesAtFourthOrder) {
  const double coarse = SineError(0.1), fine = SineError(0.05);
  EXPECT_LT(coarse, 1e-4);
  // Halving the spacing divides the error by ~2^4.
  EXPECT_GT(coarse / fine, 10.0);
  EXPECT_LT(coarse / fine, 24.0);
}

TEST(TrajectoryResamplingTest, ThreeSamplesGiveTheParabolaAndTwoTheLine) {
  const Cubic parabola{0.2, 1.0, -0.7, 0.0};
  const std::vector<double> t3 = {0.0, 0.4, 1.0};
  auto out =
      ResampleJointTrajectory(1, t3, {parabola.q(0.0), parabola.q(0.4), parabola.q(1.0)}, 0.1, 100);
  ASSERT_TRUE(out.ok()) << out.status();
  for (std::size_t k = 0; k < out->size(); ++k) {
    EXPECT_NEAR(out->positions[k], parabola.q(out->time[k]), 1e-12);
    EXPECT_NEAR(out->velocities[k], parabola.qd(out->time[k]), 1e-12);
    EXPECT_NEAR(out->accelerations[k], -1.4, 1e-12);
  }
  auto line = ResampleJointTrajectory(1, {1.0, 2.0}, {3.0, 1.0}, 0.25, 100);
  ASSERT_TRUE(line.ok()) << line.status();
  ASSERT_EQ(line->size(), 5u);
  EXPECT_NEAR(line->positions[1], 2.5, 1e-12);
  EXPECT_NEAR(line->velocities[3], -2.0, 1e-12);
  EXPECT_EQ(line->accelerations[2], 0.0);
}

TEST(TrajectoryResamplingTest, PastTheLastSampleTheArmHoldsStill) {
  // 1 s at 0.3 s: grid 0, 0.3, 0.6, 0.9, 1.2; the last lies past the end.
  auto out = ResampleJointTrajectory(1, {0.0, 0.5, 1.0}, {0.0, 0.25, 1.0}, 0.3, 100);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 5u);
  EXPECT_NEAR(out->time.back(), 1.2, 1e-12);
  EXPECT_EQ(out->positions.back(), 1.0);
  EXPECT_EQ(out->velocities.back(), 0.0);
  EXPECT_EQ(out->accelerations.back(), 0.0);
}

TEST(TrajectoryResamplingTest, BadInputIsRefusedNamingTheField) {
  auto names = [](const absl::StatusOr<Trajectory>& r, const std::string& field) {
    return !r.ok() && r.status().code() == absl::StatusCode::kInvalidArgument &&
           r.status().message().find(field) != std::string::npos;
  };
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 1, 1}, {0, 1, 2}, 0.1, 100), "time[2]"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 2, 1}, {0, 1, 2}, 0.1, 100), "time[2]"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, NAN, 1}, {0, 1, 2}, 0.1, 100), "time[1]"));
  EXPECT_TRUE(names(ResampleJointTrajectory(2, {0, 1}, {0, 1, 2}, 0.1, 100), "positions"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 1}, {0, INFINITY}, 0.1, 100), "positions[1]"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {}, {}, 0.1, 100), "time"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 1}, {0, 1}, 0.0, 100), "sample_time"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 1}, {0, 1}, NAN, 100), "sample_time"));
  EXPECT_TRUE(names(ResampleJointTrajectory(1, {0, 100}, {0, 1}, 1e-3, 1000), "sample_time"));
}

}  // namespace
}  // namespace motion
