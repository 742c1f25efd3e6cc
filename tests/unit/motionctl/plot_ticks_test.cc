// Axis ticks of the plan picture: 1-2-5 steps worked out by hand for
// ranges the picture meets (a cycle time, the +-1.15 ratio range, TCP
// coordinates in metres), and their labels.

#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "clients/motionctl/plot_ticks.h"

namespace motionctl {
namespace {

void ExpectTicks(double lo, double hi, int target, const std::vector<double>& expected) {
  const std::vector<double> ticks = NiceTicks(lo, hi, target);
  ASSERT_EQ(ticks.size(), expected.size()) << lo << ".." << hi;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(ticks[i], expected[i], 1e-12) << lo << ".." << hi << " tick " << i;
  }
}

TEST(PlotTicksTest, StepsAreOneTwoFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(NiceStep(0, 13.048, 10), 2.0);     // 1.3 per interval -> 2
  EXPECT_DOUBLE_EQ(NiceStep(-1.15, 1.15, 5), 0.5);    // 0.46 -> 0.5
  EXPECT_DOUBLE_EQ(NiceStep(-3, 3, 5), 2.0);          // 1.2 -> 2
  EXPECT_DOUBLE_EQ(NiceStep(0, 10, 10), 1.0);         // exactly 1 stays 1
  EXPECT_DOUBLE_EQ(NiceStep(0, 20, 10), 2.0);         // exactly 2 stays 2
  EXPECT_DOUBLE_EQ(NiceStep(0, 0.7, 5), 0.2);         // 0.14 -> 0.2
  EXPECT_DOUBLE_EQ(NiceStep(0, 60, 10), 10.0);        // 6 -> 10
  EXPECT_NEAR(NiceStep(0.31, 0.34, 5), 0.01, 1e-15);  // 0.006 -> 0.01
  EXPECT_DOUBLE_EQ(NiceStep(1, 1, 5), 1.0);           // empty range
}

TEST(PlotTicksTest, TicksAreTheMultiplesInsideTheRange) {
  ExpectTicks(0, 13.048, 10, {0, 2, 4, 6, 8, 10, 12});
  ExpectTicks(-1.15, 1.15, 5, {-1, -0.5, 0, 0.5, 1});
  ExpectTicks(0.317, 0.733, 5, {0.4, 0.5, 0.6, 0.7});
  ExpectTicks(0, 1, 5, {0, 0.2, 0.4, 0.6, 0.8, 1.0});  // both ends included
  EXPECT_TRUE(NiceTicks(1, 0, 5).empty());
  EXPECT_TRUE(NiceTicks(0, std::numeric_limits<double>::infinity(), 5).empty());
}

TEST(PlotTicksTest, LabelsHaveTheStepsDecimals) {
  EXPECT_EQ(FormatTick(0.5, 0.5), "0.5");
  EXPECT_EQ(FormatTick(-1, 0.5), "-1.0");
  EXPECT_EQ(FormatTick(12, 2), "12");
  EXPECT_EQ(FormatTick(0.3 - 0.1 - 0.2, 0.1), "0.0");  // not "-0.0"
  EXPECT_EQ(FormatTick(-1e-17, 1), "0");
  EXPECT_EQ(FormatTick(0.05, 0.05), "0.05");
  EXPECT_EQ(FormatTick(7.5, 2.5), "7.5");
}

}  // namespace
}  // namespace motionctl
