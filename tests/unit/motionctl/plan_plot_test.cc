// The plan picture's layout, read back from its pixels: every geometric
// fact is measured in the picture itself (where the dashed limit lines
// are, where a curve's anti-aliased ink is centred, which columns are
// red), never taken from the layout code's constants.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "clients/motionctl/plan_plot.h"

namespace motionctl {
namespace {

Rgb PixelOf(const RgbImage& image, int x, int y) {
  const std::uint8_t* p = &image.pixels[(static_cast<std::size_t>(y) * image.width + x) * 3];
  return {p[0], p[1], p[2]};
}

// Two joints with constant ratios to their limits, over one second:
// a: position 0.6 in [-2, 2] (ratio 0.3), velocity 1.4 of 2 (0.7),
//    acceleration 2t, so jerk 2 of 10 (0.2);
// b: continuous (no position limit), velocity -1 of 4 (-0.25),
//    acceleration -3t, so jerk -3 of 20 (-0.15).
PlanPlotData TwoJoints() {
  PlanPlotData data;
  data.title = "test.json on two";
  data.ok = true;
  data.sample_time = 0.01;
  data.cycle_time = 1.0;
  data.joints = {{"a", true, -2, 2, 2, 4, 10}, {"b", false, 0, 0, 4, 8, 20}};
  for (int k = 0; k <= 100; ++k) {
    const double t = 0.01 * k;
    data.time.push_back(t);
    data.positions.insert(data.positions.end(), {0.6, 0.1 * t});
    data.velocities.insert(data.velocities.end(), {1.4, -1.0});
    data.accelerations.insert(data.accelerations.end(), {2 * t, -3 * t});
    data.tcp.insert(data.tcp.end(), {0.4 + 0.1 * t, 0.2 * t, 0.3});
  }
  data.segments = {{"first", 0.0}, {"second", 0.5}};
  return data;
}

// Rows where the dashed black limit lines run: many black pixels across
// the middle of the joint panels (the left half of the picture).
std::vector<int> LimitRows(const RgbImage& image) {
  std::vector<int> rows;
  for (int y = 0; y < image.height; ++y) {
    int black = 0;
    for (int x = 300; x < 700; ++x) black += PixelOf(image, x, y) == Rgb{0, 0, 0};
    if (black >= 150) rows.push_back(y);
  }
  return rows;
}

// The coverage-weighted mean row of a colour's anti-aliased ink over
// white in columns [x0, x1) and rows [y0, y1); NaN without any.
double InkRow(const RgbImage& image, Rgb colour, int x0, int x1, int y0, int y1) {
  const int channel[3] = {colour.r, colour.g, colour.b};
  const int strongest = static_cast<int>(
      std::max_element(channel, channel + 3, [](int a, int b) { return 255 - a < 255 - b; }) -
      channel);
  double weight = 0, sum = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y) {
    for (int x = x0; x < x1; ++x) {
      const Rgb p = PixelOf(image, x, y);
      const int got[3] = {p.r, p.g, p.b};
      const double c = (255.0 - got[strongest]) / (255.0 - channel[strongest]);
      if (c < 0.2 || c > 1.01) continue;
      bool blend_over_white = true;
      for (int i = 0; i < 3; ++i) {
        blend_over_white =
            blend_over_white && std::abs(got[i] - (255 + c * (channel[i] - 255))) <= 3;
      }
      if (!blend_over_white) continue;
      weight += c;
      sum += c * y;
    }
  }
  return weight > 0 ? sum / weight : std::nan("");
}

// The row a ratio is drawn at, from a panel's +1 and -1 line rows.
double RatioRow(int plus_one, int minus_one, double ratio) {
  return plus_one + (minus_one - plus_one) * (1 - ratio) / 2;
}

// Columns holding a long vertical run of the diagnostic red.
std::vector<int> RedColumns(const RgbImage& image) {
  std::vector<int> columns;
  for (int x = 0; x < image.width; ++x) {
    int red = 0;
    for (int y = 0; y < image.height; ++y) red += PixelOf(image, x, y) == kDiagnosticRed;
    if (red >= 300) columns.push_back(x);
  }
  return columns;
}

int CountColour(const RgbImage& image, Rgb colour) {
  int n = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) n += PixelOf(image, x, y) == colour;
  }
  return n;
}

TEST(PlanPlotTest, SizeAndColours) {
  const RgbImage image = RenderPlanPlot(TwoJoints());
  EXPECT_EQ(image.width, kPlanPlotWidth);
  EXPECT_EQ(image.height, kPlanPlotHeight);
  ASSERT_EQ(image.pixels.size(), static_cast<std::size_t>(kPlanPlotWidth) * kPlanPlotHeight * 3);
  EXPECT_GT(CountColour(image, JointColour(0)), 200);
  EXPECT_GT(CountColour(image, JointColour(1)), 200);
  EXPECT_EQ(CountColour(image, kDiagnosticRed), 0) << "red without a diagnostic";
  EXPECT_NE(JointColour(0), JointColour(1));
  for (int j = 0; j < 8; ++j) EXPECT_NE(JointColour(j), kDiagnosticRed);
}

TEST(PlanPlotTest, CurvesSitAtTheirRatioBetweenTheLimitLines) {
  const RgbImage image = RenderPlanPlot(TwoJoints());
  const std::vector<int> rows = LimitRows(image);
  // +1 and -1 of the four panels, top to bottom.
  ASSERT_EQ(rows.size(), 8u) << "dashed limit rows found: " << rows.size();
  const auto expect_at = [&](int panel, int joint, double ratio) {
    const int plus = rows[2 * panel], minus = rows[2 * panel + 1];
    const double row = InkRow(image, JointColour(joint), 300, 700, plus - 20, minus + 20);
    EXPECT_NEAR(row, RatioRow(plus, minus, ratio), 0.75)
        << "panel " << panel << " joint " << joint << " ratio " << ratio;
  };
  expect_at(0, 0, 0.3);    // position in [-2, 2]
  expect_at(1, 0, 0.7);    // velocity
  expect_at(1, 1, -0.25);  // velocity, other units
  expect_at(3, 0, 0.2);    // jerk from the accelerations' differences
  expect_at(3, 1, -0.15);
  // The continuous joint has no place in the position panel.
  EXPECT_TRUE(std::isnan(InkRow(image, JointColour(1), 300, 700, rows[0] - 20, rows[1] + 20)));
}

TEST(PlanPlotTest, DiagnosticsAreRedLinesAtTheirTime) {
  std::map<double, int> column_at;
  for (const double t : {0.2, 0.5, 0.8}) {
    PlanPlotData data = TwoJoints();
    data.ok = false;
    PlotDiagnostic d;
    d.severity = "ERROR";
    d.code = "COLLISION";
    d.segment_id = "first";
    d.message = "link touches the fixture";
    d.has_time = true;
    d.time = t;
    data.diagnostics.push_back(d);
    const std::vector<int> columns = RedColumns(RenderPlanPlot(data));
    ASSERT_EQ(columns.size(), 2u) << "t " << t;  // one line, two pixels wide
    EXPECT_EQ(columns[1], columns[0] + 1);
    column_at[t] = columns[0];
  }
  // On one linear time axis: equal time steps, equal pixel steps.
  const int first = column_at[0.5] - column_at[0.2], second = column_at[0.8] - column_at[0.5];
  EXPECT_GT(first, 100);
  EXPECT_LE(std::abs(first - second), 1);
}

TEST(PlanPlotTest, DiagnosticWithoutTimeIsListedNotMarked) {
  PlanPlotData data = TwoJoints();
  PlotDiagnostic d;
  d.severity = "WARNING";
  d.code = "SINGULARITY";
  d.message = "near a singularity";
  data.diagnostics.push_back(d);
  const RgbImage image = RenderPlanPlot(data);
  EXPECT_TRUE(RedColumns(image).empty());
  EXPECT_GT(CountColour(image, kDiagnosticRed), 0);  // its number in the list
}

TEST(PlanPlotTest, NoSamplesAndBrokenInputStillDraw) {
  PlanPlotData empty = TwoJoints();
  empty.time.clear();
  empty.positions.clear();
  empty.velocities.clear();
  empty.accelerations.clear();
  empty.tcp.clear();
  const RgbImage none = RenderPlanPlot(empty);
  EXPECT_EQ(none.width, kPlanPlotWidth);
  EXPECT_EQ(LimitRows(none).size(), 8u);  // the frames and limits are still there

  PlanPlotData broken = TwoJoints();
  broken.velocities.resize(7);    // fewer than one joint row per sample
  broken.tcp.resize(5);           // not a whole number of points
  broken.joints[0].max_jerk = 0;  // no jerk limit: not drawn
  broken.time.push_back(std::nan(""));
  const RgbImage image = RenderPlanPlot(broken);
  EXPECT_EQ(image.height, kPlanPlotHeight);

  PlanPlotData no_joints = TwoJoints();
  no_joints.joints.clear();
  EXPECT_EQ(RenderPlanPlot(no_joints).width, kPlanPlotWidth);
}

}  // namespace
}  // namespace motionctl
