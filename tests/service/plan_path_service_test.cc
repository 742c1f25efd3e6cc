// PlanPath over real gRPC: the stream's shape (header, chunks tiling the
// samples, each segment report after the chunk holding its last sample,
// summary last), the trajectory against core's PlanPath run in the test on
// the same program (equal to the last bit: same deterministic code, no
// resampling on the way), the ends against FK computed in the test, the two
// example programs, bad input (each named by its field, or a result with a
// diagnostic when the input is well-formed), the point budget, and
// cancellation.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include "service_test_support.h"

#ifndef MOTIOND_EXAMPLES_DIR
#error "MOTIOND_EXAMPLES_DIR must point at clients/examples"
#endif

namespace motiond_test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> kUr5Start = {0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0};

// Tool pointing down (rotation of pi about y), as in the example programs.
v1::Pose Down(double x, double y, double z) { return WirePose(x, y, z, 0.0, 1.0, 0.0, 0.0); }

// About 10 s at 4 ms with the trapezoid profile: a MoveJ to a pose, three
// slow MoveLs and a MoveC (a quarter circle of radius 0.1 m about
// (0.5, 0.15, 0.2)).
Program TenSecondProgram() {
  Program program(kUr5Start);
  program.MoveJPose("approach", Down(0.40, 0.0, 0.25), 0.4)
      .MoveL("down", Down(0.40, 0.0, 0.20), 0.05)
      .MoveL("edge", Down(0.40, 0.15, 0.20), 0.05)
      .MoveC("arc", Down(0.5 - 0.1 * std::cos(kPi / 4), 0.15 + 0.1 * std::sin(kPi / 4), 0.20),
             Down(0.50, 0.25, 0.20), 0.05)
      .MoveL("lift", Down(0.50, 0.25, 0.30), 0.05)
      .SampleTime(0.004)
      .Trapezoid();
  return program;
}

// Index of the first difference, -1 when equal (sizes included).
template <typename A, typename B>
long FirstDifference(const A& a, const B& b) {
  const std::size_t n = std::min<std::size_t>(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!(a[i] == b[i])) return static_cast<long>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<long>(n);
}

// The stream put back together, after checking its shape.
struct Assembled {
  v1::PlanPathHeader header;
  std::vector<double> time, positions, velocities, accelerations;
  std::vector<v1::Pose> tcp;
  std::vector<long> chunk_sizes;
  std::vector<v1::SegmentReport> reports;
  v1::PlanPathSummary summary;
};

// Header first; chunks whose first_index values tile 0..n-1 with n x dof
// arrays; the reports in segment order, each after the chunk that holds its
// last sample and before the next chunk; the summary last, once.
::testing::AssertionResult AssembleStream(const PlanPathCall& call, Assembled* out) {
  const auto& m = call.messages;
  if (m.size() < 2 || !m.front().has_header() || !m.back().has_summary()) {
    return ::testing::AssertionFailure() << "not header ... summary: " << m.size() << " messages";
  }
  out->header = m.front().header();
  out->summary = m.back().summary();
  const int dof = out->header.dof();
  long points = 0;             // samples received so far
  long last_chunk_first = -1;  // first_index of the latest chunk
  bool chunk_since_report = false;
  for (std::size_t k = 1; k + 1 < m.size(); ++k) {
    if (m[k].has_chunk()) {
      const v1::TrajectoryChunk& c = m[k].chunk();
      const long n = c.time_size();
      if (c.first_index() != points) {
        return ::testing::AssertionFailure()
               << "chunk " << k << " first_index " << c.first_index() << ", expected " << points;
      }
      if (n == 0 || c.positions_size() != n * dof || c.velocities_size() != n * dof ||
          c.accelerations_size() != n * dof) {
        return ::testing::AssertionFailure() << "chunk " << k << " has ragged arrays";
      }
      out->time.insert(out->time.end(), c.time().begin(), c.time().end());
      out->positions.insert(out->positions.end(), c.positions().begin(), c.positions().end());
      out->velocities.insert(out->velocities.end(), c.velocities().begin(), c.velocities().end());
      out->accelerations.insert(out->accelerations.end(), c.accelerations().begin(),
                                c.accelerations().end());
      out->tcp.insert(out->tcp.end(), c.tcp().begin(), c.tcp().end());
      out->chunk_sizes.push_back(n);
      last_chunk_first = points;
      points += n;
      chunk_since_report = true;
    } else if (m[k].has_segment_report()) {
      const v1::SegmentReport& r = m[k].segment_report();
      if (r.segment_index() != static_cast<int>(out->reports.size())) {
        return ::testing::AssertionFailure() << "report for segment " << r.segment_index()
                                             << " arrived as number " << out->reports.size();
      }
      const long end = r.first_index() + r.point_count();  // one past its last sample
      if (end > points) {
        return ::testing::AssertionFailure()
               << "report '" << r.segment_id() << "' (samples up to " << end
               << ") before its samples (" << points << " sent)";
      }
      // Not later than needed: its last sample is in the latest chunk.
      if (r.point_count() > 0 && chunk_since_report && end - 1 < last_chunk_first) {
        return ::testing::AssertionFailure()
               << "report '" << r.segment_id() << "' held back past the chunk with its last sample";
      }
      out->reports.push_back(r);
      chunk_since_report = false;
    } else {
      return ::testing::AssertionFailure() << "message " << k << " is neither chunk nor report";
    }
  }
  if (points != out->header.point_count() || points != out->summary.point_count()) {
    return ::testing::AssertionFailure()
           << points << " samples streamed, header says " << out->header.point_count()
           << ", summary says " << out->summary.point_count();
  }
  return ::testing::AssertionSuccess();
}

// The streamed trajectory and reports are core's, to the last bit.
void ExpectEqualToCore(const Assembled& got, const motion::PathResult& core) {
  const motion::Trajectory& t = core.trajectory;
  EXPECT_EQ(FirstDifference(got.time, t.time), -1) << "time";
  EXPECT_EQ(FirstDifference(got.positions, t.positions), -1) << "positions";
  EXPECT_EQ(FirstDifference(got.velocities, t.velocities), -1) << "velocities";
  EXPECT_EQ(FirstDifference(got.accelerations, t.accelerations), -1) << "accelerations";
  EXPECT_EQ(got.summary.ok(), core.ok);
  EXPECT_EQ(got.summary.duration(), core.duration);
  EXPECT_EQ(CodesOf(got.summary.diagnostics()), CodesOf(core.diagnostics));
  ASSERT_EQ(got.reports.size(), core.segments.size());
  for (std::size_t i = 0; i < core.segments.size(); ++i) {
    const v1::SegmentReport& r = got.reports[i];
    const motion::SegmentReport& c = core.segments[i];
    SCOPED_TRACE(c.segment_id);
    EXPECT_EQ(r.segment_id(), c.segment_id);
    EXPECT_EQ(r.ok(), c.ok);
    EXPECT_EQ(r.start_time(), c.start_time);
    EXPECT_EQ(r.duration(), c.duration);
    EXPECT_EQ(r.first_index(), c.first_index);
    EXPECT_EQ(r.point_count(), c.point_count);
    EXPECT_EQ(r.max_joint_velocity_ratio(), c.max_joint_velocity_ratio);
    EXPECT_EQ(r.max_joint_acceleration_ratio(), c.max_joint_acceleration_ratio);
    EXPECT_EQ(r.path_length(), c.path_length);
    EXPECT_EQ(CodesOf(r.diagnostics()), CodesOf(c.diagnostics));
  }
}

const v1::Diagnostic* FindDiagnostic(const v1::PlanPathSummary& summary, v1::DiagnosticCode code) {
  for (const auto& d : summary.diagnostics()) {
    if (d.code() == code) return &d;
  }
  return nullptr;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class PlanPathServiceTest : public ::testing::Test {
 protected:
  std::string Register(const std::string& file) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    return response.robot_id();
  }

  v1::RobotRef Ur5() const {
    v1::RobotRef ref;
    ref.set_robot_id(ur5_id_);
    return ref;
  }
  // With the URDF too: good on a server that has not seen the robot.
  v1::RobotRef Ur5Inline() const {
    v1::RobotRef ref = Ur5();
    ref.set_urdf(ReadRobot("ur5.urdf"));
    return ref;
  }

  // Core's plan of `program`, which must not be an error.
  motion::PathResult CorePlan(const Program& program) {
    absl::StatusOr<motion::PathResult> result = ur5_.Plan(program.Core());
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *std::move(result) : motion::PathResult{};
  }

  PlanPathCall Plan(const v1::PlanPathRequest& request) {
    return CallPlanPath(stubs_.planner(), request);
  }

  // A short good program ending on a joint target.
  static Program ShortProgram() {
    Program program(kUr5Start);
    program.MoveJPose("approach", Down(0.40, 0.0, 0.25), 0.5)
        .MoveL("down", Down(0.40, 0.10, 0.20), 0.25)
        .MoveJ("home", {0.2, -1.4, 1.4, -1.5, -1.6, 0.1}, 0.5);
    return program;
  }

  // A good program plans: OK, ok=true, ends exactly on its joint target.
  ::testing::AssertionResult PlansAGoodPath(Stubs& stubs) {
    const PlanPathCall call = CallPlanPath(stubs.planner(), ShortProgram().Request(Ur5Inline()),
                                           std::chrono::seconds(10));
    if (!call.status.ok()) return ::testing::AssertionFailure() << Describe(call.status);
    Assembled got;
    if (auto shape = AssembleStream(call, &got); !shape) return shape;
    if (!got.summary.ok()) {
      return ::testing::AssertionFailure() << got.summary.ShortDebugString();
    }
    const std::vector<double> last(got.positions.end() - 6, got.positions.end());
    if (last != std::vector<double>{0.2, -1.4, 1.4, -1.5, -1.6, 0.1}) {
      return ::testing::AssertionFailure() << "does not end on the joint target";
    }
    return ::testing::AssertionSuccess();
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel()};
  const std::string ur5_id_ = Register("ur5.urdf");
  CoreRobot ur5_{ReadRobot("ur5.urdf")};
};

// ------------------------------------------------------- a long program --

TEST_F(PlanPathServiceTest, TenSecondProgramStreamsInChunksEqualToCore) {
  const Program program = TenSecondProgram();
  const PlanPathCall call = Plan(program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));

  const motion::PathResult core = CorePlan(program);
  ASSERT_TRUE(core.ok) << "the program itself must be good";

  // ~10 s at 4 ms: ~2 500 samples in ceil(n / 256) chunks of 256.
  const long n = static_cast<long>(got.time.size());
  EXPECT_GE(n, 2250);
  EXPECT_LE(n, 2750);
  EXPECT_NEAR(got.summary.duration(), 10.0, 1.0);
  EXPECT_EQ(static_cast<long>(got.chunk_sizes.size()), (n + 255) / 256);
  for (std::size_t k = 0; k + 1 < got.chunk_sizes.size(); ++k) EXPECT_EQ(got.chunk_sizes[k], 256);
  EXPECT_GE(got.chunk_sizes.size(), 9u);

  // Header.
  EXPECT_EQ(got.header.robot_id(), ur5_id_);
  EXPECT_EQ(got.header.dof(), 6);
  EXPECT_EQ(
      std::vector<std::string>(got.header.joint_names().begin(), got.header.joint_names().end()),
      ur5_.chain().dof_names);
  EXPECT_EQ(got.header.sample_time(), 0.004);
  EXPECT_EQ(got.header.base_link(), ur5_.chain().base_link);
  EXPECT_EQ(got.header.tip_link(), ur5_.chain().tip_link);

  ExpectEqualToCore(got, core);
  EXPECT_TRUE(got.summary.ok());
  ASSERT_EQ(got.reports.size(), 5u);
  EXPECT_TRUE(got.tcp.empty()) << "TCP poses only with include_tcp";

  // Times: from 0, strictly increasing, about one sample time apart.
  ASSERT_FALSE(got.time.empty());
  EXPECT_EQ(got.time.front(), 0.0);
  for (std::size_t i = 1; i < got.time.size(); ++i) {
    ASSERT_GT(got.time[i], got.time[i - 1]) << "at sample " << i;
    ASSERT_LE(got.time[i] - got.time[i - 1], 0.004 + 1e-9) << "at sample " << i;
  }
  EXPECT_EQ(got.time.back(), got.summary.duration());

  // The last sample is the last target (FK in the test).
  const std::vector<double> last(got.positions.end() - 6, got.positions.end());
  const Eigen::Isometry3d end = ur5_.Fk(last);
  const Eigen::Isometry3d target = ToIsometry(Down(0.50, 0.25, 0.30));
  EXPECT_LE((end.translation() - target.translation()).norm(), 1e-6);
  EXPECT_LE(AngleBetween(end.linear(), target.linear()), 1e-5);
  // Each MoveL segment ends on its target: the sample its report calls
  // its last is FK-at-target.
  for (const auto& [index, x, y, z] :
       {std::tuple{1, 0.40, 0.0, 0.20}, std::tuple{2, 0.40, 0.15, 0.20}}) {
    const long k = got.reports[index].first_index() + got.reports[index].point_count() - 1;
    const Eigen::Isometry3d at = ur5_.Fk(
        std::vector<double>(got.positions.begin() + 6 * k, got.positions.begin() + 6 * (k + 1)));
    EXPECT_LE((at.translation() - Eigen::Vector3d(x, y, z)).norm(), 1e-6)
        << got.reports[index].segment_id();
  }
}

TEST_F(PlanPathServiceTest, MaxChunkPointsIsHonoured) {
  const Program program = TenSecondProgram();
  const motion::PathResult core = CorePlan(program);
  const long n = static_cast<long>(core.trajectory.size());
  for (const int requested : {100, 333, 5000}) {
    SCOPED_TRACE(requested);
    v1::PlanPathRequest request = program.Request(Ur5());
    request.set_max_chunk_points(requested);
    const PlanPathCall call = Plan(request);
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    Assembled got;
    ASSERT_TRUE(AssembleStream(call, &got));
    const long per_chunk = std::min(requested, 4096);  // 4096 at most (proto)
    EXPECT_EQ(static_cast<long>(got.chunk_sizes.size()), (n + per_chunk - 1) / per_chunk);
    for (std::size_t k = 0; k < got.chunk_sizes.size(); ++k) {
      EXPECT_LE(got.chunk_sizes[k], per_chunk);
      if (k + 1 < got.chunk_sizes.size()) {
        EXPECT_EQ(got.chunk_sizes[k], per_chunk);
      }
    }
    ExpectEqualToCore(got, core);
  }
}

TEST_F(PlanPathServiceTest, IncludeTcpAddsOnePosePerSampleEqualToFk) {
  v1::PlanPathRequest request = TenSecondProgram().Request(Ur5());
  request.set_include_tcp(true);
  const PlanPathCall call = Plan(request);
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  for (const auto& m : call.messages) {
    if (m.has_chunk()) {
      EXPECT_EQ(m.chunk().tcp_size(), m.chunk().time_size());
    }
  }
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  ASSERT_EQ(got.tcp.size(), got.time.size());
  double worst_position = 0.0, worst_rotation = 0.0;
  for (std::size_t i = 0; i < got.time.size(); ++i) {
    const Eigen::Isometry3d fk = ur5_.Fk(
        std::vector<double>(got.positions.begin() + 6 * i, got.positions.begin() + 6 * (i + 1)));
    const Eigen::Isometry3d tcp = ToIsometry(got.tcp[i]);
    worst_position = std::max(worst_position, (fk.translation() - tcp.translation()).norm());
    worst_rotation = std::max(worst_rotation, AngleBetween(fk.linear(), tcp.linear()));
  }
  EXPECT_LE(worst_position, 1e-9);
  EXPECT_LE(worst_rotation, 1e-9);
}

// ---------------------------------------------------- example programs --

TEST_F(PlanPathServiceTest, ExampleProgramsPlanOk) {
  for (const std::string file : {"ur5_glue_path.json", "ur5_pick_and_place.json"}) {
    SCOPED_TRACE(file);
    // "robot" is a file name for motionctl; the wire wants a RobotRef.
    const std::string json =
        std::regex_replace(ReadText(std::string(MOTIOND_EXAMPLES_DIR) + "/" + file),
                           std::regex("\"robot\"\\s*:\\s*\"[^\"]*\"\\s*,"), "");
    v1::PlanPathRequest request;
    const auto parsed = google::protobuf::util::JsonStringToMessage(json, &request);
    ASSERT_TRUE(parsed.ok()) << parsed.ToString();
    ASSERT_GE(request.segments_size(), 6);
    *request.mutable_robot() = Ur5();

    const PlanPathCall call = Plan(request);
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    Assembled got;
    ASSERT_TRUE(AssembleStream(call, &got));
    EXPECT_TRUE(got.summary.ok()) << got.summary.ShortDebugString();
    ASSERT_EQ(static_cast<int>(got.reports.size()), request.segments_size());
    for (int i = 0; i < request.segments_size(); ++i) {
      EXPECT_EQ(got.reports[i].segment_id(), request.segments(i).id());
      EXPECT_TRUE(got.reports[i].ok()) << got.reports[i].ShortDebugString();
    }
    // The last sample is the last target.
    const std::vector<double> last(got.positions.end() - 6, got.positions.end());
    const v1::MotionSegment& final_segment = request.segments(request.segments_size() - 1);
    if (final_segment.has_movej() && final_segment.movej().has_joints()) {
      EXPECT_EQ(last, std::vector<double>(final_segment.movej().joints().values().begin(),
                                          final_segment.movej().joints().values().end()));
    } else {
      ASSERT_TRUE(final_segment.has_movel());
      const Eigen::Isometry3d end = ur5_.Fk(last);
      const Eigen::Isometry3d target = ToIsometry(final_segment.movel().target());
      EXPECT_LE((end.translation() - target.translation()).norm(), 1e-6);
      EXPECT_LE(AngleBetween(end.linear(), target.linear()), 1e-5);
    }
    // pick_and_place asks for a DISTANCE zone: blended within its sphere,
    // reported on the zoned segment, not approximated.
    for (int i = 0; i < request.segments_size(); ++i) {
      if (request.segments(i).zone().kind() != v1::Zone::DISTANCE) continue;
      EXPECT_EQ(FindDiagnostic(got.summary, v1::ZONE_APPROXIMATED), nullptr);
      ASSERT_TRUE(got.reports[i].has_blend()) << got.reports[i].ShortDebugString();
      const v1::BlendReport& blend = got.reports[i].blend();
      EXPECT_GT(blend.time_saved(), 0.0);
      EXPECT_LE(blend.zone_radius(), request.segments(i).zone().distance());
      EXPECT_LT(blend.corner_distance(), request.segments(i).zone().distance());
      EXPECT_EQ(blend.end_index() + 1, got.reports[i + 1].first_index());
    }
  }
}

// ------------------------------------------------------------ bad input --

TEST_F(PlanPathServiceTest, EmptySegmentListIsPathEmpty) {
  const PlanPathCall call = Plan(Program(kUr5Start).Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  ASSERT_NE(call.summary(), nullptr);
  EXPECT_FALSE(call.summary()->ok());
  const v1::Diagnostic* empty = FindDiagnostic(*call.summary(), v1::PATH_EMPTY);
  ASSERT_NE(empty, nullptr) << call.summary()->ShortDebugString();
  EXPECT_EQ(empty->severity(), v1::SEVERITY_ERROR);
  EXPECT_EQ(call.chunk_count(), 0);
  EXPECT_EQ(call.summary()->point_count(), 0);
}

TEST_F(PlanPathServiceTest, NegativeSampleTimeIsInvalidArgument) {
  const PlanPathCall call = Plan(ShortProgram().SampleTime(-0.004).Request(Ur5()));
  EXPECT_TRUE(IsInvalidArgument(call.status, "sample_time", {"-0.004"}));
  EXPECT_TRUE(call.messages.empty());
  // NaN, and positive but below the 1e-4 s minimum, are refused the same way.
  EXPECT_TRUE(IsInvalidArgument(Plan(ShortProgram().SampleTime(kNaN).Request(Ur5())).status,
                                "sample_time", {"nan"}));
  EXPECT_TRUE(IsInvalidArgument(Plan(ShortProgram().SampleTime(5e-5).Request(Ur5())).status,
                                "sample_time", {"minimum"}));
}

TEST_F(PlanPathServiceTest, SpeedOverrideAndChunkSizeOutOfRangeAreInvalidArgument) {
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  request.set_speed_override(1.5);
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "speed_override", {"1.5"}));
  request.set_speed_override(-0.5);
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "speed_override", {"-0.5"}));
  request.set_speed_override(0.0);
  request.set_max_chunk_points(-1);
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "max_chunk_points", {">= 0"}));
}

TEST_F(PlanPathServiceTest, NaNInAPoseIsInvalidArgumentNamingTheSegmentField) {
  v1::PlanPathRequest request = TenSecondProgram().Request(Ur5());
  request.mutable_segments(2)->mutable_movel()->mutable_target()->mutable_position()->set_y(kNaN);
  const PlanPathCall call = Plan(request);
  EXPECT_TRUE(IsInvalidArgument(call.status, "segments[2].movel.target.position", {"finite|nan"}));
  EXPECT_TRUE(call.messages.empty());

  request = TenSecondProgram().Request(Ur5());
  request.mutable_segments(3)->mutable_movec()->mutable_via()->mutable_orientation()->set_w(kNaN);
  EXPECT_TRUE(
      IsInvalidArgument(Plan(request).status, "segments[3].movec.via.orientation", {"finite|nan"}));
}

TEST_F(PlanPathServiceTest, NegativeSpeedIsInvalidArgument) {
  v1::PlanPathRequest request = TenSecondProgram().Request(Ur5());
  request.mutable_segments(1)->mutable_speed()->set_linear_velocity(-0.1);
  const PlanPathCall call = Plan(request);
  EXPECT_TRUE(
      IsInvalidArgument(call.status, "segments[1].speed.linear_velocity", {"-0.1", ">= 0"}));
  EXPECT_TRUE(call.messages.empty());
}

TEST_F(PlanPathServiceTest, SegmentWithNoMotionIsInvalidArgument) {
  v1::PlanPathRequest request = TenSecondProgram().Request(Ur5());
  request.mutable_segments(1)->clear_motion();
  const PlanPathCall call = Plan(request);
  EXPECT_TRUE(IsInvalidArgument(call.status, "segments[1].motion", {"unknown motion kind"}));
  EXPECT_TRUE(call.messages.empty());
}

TEST_F(PlanPathServiceTest, StartJointsOfTheWrongLengthIsInvalidArgument) {
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  request.mutable_start_joints()->RemoveLast();
  const PlanPathCall call = Plan(request);
  EXPECT_TRUE(IsInvalidArgument(call.status, "start_joints", {"6", "5"}));
  EXPECT_TRUE(call.messages.empty());
}

// Sum of the motiond_solve_seconds_count samples with operation="movej" in
// the server's /metrics text (0 when the series does not exist yet).
double MoveJSolveCount(const std::string& metrics_text) {
  double count = 0;
  std::istringstream lines(metrics_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("motiond_solve_seconds_count{", 0) == 0 &&
        line.find("operation=\"movej\"") != std::string::npos) {
      count += std::stod(line.substr(line.rfind(' ') + 1));
    }
  }
  return count;
}

TEST_F(PlanPathServiceTest, MalformedLastSegmentIsRefusedBeforeAnySegmentIsPlanned) {
  // Five good segments (the first a MoveJ), then a MoveJ with 5 of 6 joints.
  Program program = TenSecondProgram();
  program.MoveJ("bad", {0.2, -1.4, 1.4, -1.5, -1.6});
  ASSERT_EQ(program.size(), 6);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  EXPECT_TRUE(IsInvalidArgument(call.status, "segments[5].movej.joints", {"6", "5"}));
  EXPECT_TRUE(call.messages.empty());
  // Not one segment was planned: no MoveJ solve time was recorded.
  EXPECT_EQ(MoveJSolveCount(server_.server().metrics().Serialize()), 0);

  // The counter does see MoveJ segments: the same program without the bad
  // segment records its one MoveJ.
  const PlanPathCall good = Plan(TenSecondProgram().Request(Ur5()));
  ASSERT_TRUE(good.status.ok()) << Describe(good.status);
  EXPECT_EQ(MoveJSolveCount(server_.server().metrics().Serialize()), 1);
}

TEST_F(PlanPathServiceTest, MoveCWithViaAtTheStartIsArcDegenerate) {
  Program program(kUr5Start);
  const v1::Pose start = WirePose(ur5_.Fk(kUr5Start));  // the TCP at the start (no tool)
  program.MoveC("bad_arc", start, Down(0.45, 0.1, 0.3), 0.1);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_FALSE(got.summary.ok());
  const v1::Diagnostic* arc = FindDiagnostic(got.summary, v1::ARC_DEGENERATE);
  ASSERT_NE(arc, nullptr) << got.summary.ShortDebugString();
  EXPECT_EQ(arc->segment_id(), "bad_arc");
  EXPECT_EQ(arc->severity(), v1::SEVERITY_ERROR);
  ASSERT_EQ(got.reports.size(), 1u);
  EXPECT_FALSE(got.reports[0].ok());
  ExpectEqualToCore(got, CorePlan(program));
}

TEST_F(PlanPathServiceTest, TargetOutsideTheWorkspaceIsTargetUnreachable) {
  Program program(kUr5Start);
  program.MoveJPose("first", Down(0.40, 0.0, 0.25))
      .MoveL("too_far", Down(1.8, 0.4, 0.25))
      .StopOnError(true);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_FALSE(got.summary.ok());
  const v1::Diagnostic* unreachable = FindDiagnostic(got.summary, v1::TARGET_UNREACHABLE);
  ASSERT_NE(unreachable, nullptr) << got.summary.ShortDebugString();
  EXPECT_EQ(unreachable->segment_id(), "too_far");
  EXPECT_EQ(unreachable->severity(), v1::SEVERITY_ERROR);
  ASSERT_EQ(got.reports.size(), 2u);
  EXPECT_TRUE(got.reports[0].ok());
  EXPECT_FALSE(got.reports[1].ok());
  ExpectEqualToCore(got, CorePlan(program));
}

TEST_F(PlanPathServiceTest, BillionPointPathIsRefusedBeforeAnyChunk) {
  // 0.1 m at 1 um/s is 1e5 s; at 1e-4 s that is 1e9 samples.
  Program program(kUr5Start);
  program.MoveJPose("quick", Down(0.40, 0.0, 0.30))
      .MoveL("glacial", Down(0.40, 0.1, 0.30), 1e-6)
      .SampleTime(1e-4);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  EXPECT_TRUE(IsInvalidArgument(call.status, "segments[1]", {"glacial", "sample"}));
  EXPECT_TRUE(call.messages.empty()) << call.messages.size() << " messages before the error";
}

TEST_F(PlanPathServiceTest, ServerStillPlansAGoodPathAfterEveryBadInput) {
  std::vector<v1::PlanPathRequest> bad;
  bad.push_back(Program(kUr5Start).Request(Ur5()));  // empty
  bad.push_back(ShortProgram().SampleTime(-1).Request(Ur5()));
  bad.push_back(TenSecondProgram().Request(Ur5()));
  bad.back().mutable_segments(2)->mutable_movel()->mutable_target()->mutable_position()->set_x(
      kNaN);
  bad.push_back(TenSecondProgram().Request(Ur5()));
  bad.back().mutable_segments(1)->mutable_speed()->set_linear_velocity(-1);
  bad.push_back(TenSecondProgram().Request(Ur5()));
  bad.back().mutable_segments(0)->clear_motion();
  bad.push_back(ShortProgram().Request(Ur5()));
  bad.back().add_start_joints(0.0);
  Program arc(kUr5Start);
  arc.MoveC("bad_arc", WirePose(ur5_.Fk(kUr5Start)), Down(0.45, 0.1, 0.3));
  bad.push_back(arc.Request(Ur5()));
  Program far(kUr5Start);
  far.MoveL("too_far", Down(3, 0, 0));
  bad.push_back(far.Request(Ur5()));
  Program glacial(kUr5Start);
  glacial.MoveJPose("quick", Down(0.40, 0.0, 0.30))
      .MoveL("glacial", Down(0.40, 0.1, 0.30), 1e-6)
      .SampleTime(1e-4);
  bad.push_back(glacial.Request(Ur5()));

  for (std::size_t i = 0; i < bad.size(); ++i) {
    const PlanPathCall call = Plan(bad[i]);
    const bool refused = call.status.error_code() == grpc::StatusCode::INVALID_ARGUMENT;
    const bool failed = call.status.ok() && call.summary() && !call.summary()->ok();
    EXPECT_TRUE(refused || failed) << "bad request " << i << ": " << Describe(call.status);
  }
  EXPECT_TRUE(PlansAGoodPath(stubs_));
}

// --------------------------------------------------------- cancellation --

TEST_F(PlanPathServiceTest, CancelAfterTheFirstChunkEndsCancelledAndFreesTheWorker) {
  auto options = TestServer::DefaultOptions();
  options.workers = 1;
  TestServer single(options);
  Stubs stubs(single.NewChannel());

  // ~320 s of slow MoveJ at 4 ms: ~80 000 samples with TCP poses, ~17 MB in
  // 64-sample chunks: far more than HTTP/2 flow control lets the server send
  // ahead of a client that has stopped reading, so the call cannot have
  // finished before the cancel.
  Program program(kUr5Start);
  program.MoveJ("out", {2.5, -1.0, 1.0, -1.0, -1.0, 2.5}, 0.005).MoveJ("back", kUr5Start, 0.005);
  v1::PlanPathRequest request = program.Request(Ur5Inline());
  request.set_include_tcp(true);
  request.set_max_chunk_points(64);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  auto reader = stubs.planner().PlanPath(&context, request);
  v1::PlanPathResponse message;
  ASSERT_TRUE(reader->Read(&message));
  ASSERT_TRUE(message.has_header());
  EXPECT_GT(message.header().point_count(), 60000);
  ASSERT_TRUE(reader->Read(&message));
  ASSERT_TRUE(message.has_chunk());
  context.TryCancel();
  int after_cancel = 0;
  while (reader->Read(&message)) ++after_cancel;
  // What was already on the wire may still arrive, but not the whole path.
  EXPECT_LT(after_cancel, 60000 / 64);
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << Describe(status);
  EXPECT_FALSE(status.ok());

  // The one worker is free again: a follow-up is answered well within 10 s.
  EXPECT_TRUE(PlansAGoodPath(stubs));
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

// ------------------------------------------------ the robot's real limits --

TEST_F(PlanPathServiceTest, JointLimitOverridesSlowTheBindingJointAndKeepTheRobotId) {
  // Halving every joint's velocity, acceleration and jerk lengthens the
  // MoveJs (their bounds halve) and may slow the MoveL (SPEED_REDUCED); the
  // ratios the reports give are to the overridden limits and stay within.
  const v1::PlanPathRequest plain = ShortProgram().Request(Ur5());
  const PlanPathCall fast = Plan(plain);
  ASSERT_TRUE(fast.status.ok()) << Describe(fast.status);
  Assembled a;
  ASSERT_TRUE(AssembleStream(fast, &a));

  v1::PlanPathRequest slowed = plain;
  for (int j = 0; j < ur5_.dof(); ++j) {
    const motion::JointLimits& l = ur5_.chain().dof_limits[j];
    v1::JointLimitOverride* o = slowed.mutable_robot()->add_joint_limits();
    o->set_joint_name(ur5_.chain().dof_names[j]);
    o->set_max_velocity(0.5 * l.max_velocity);
    o->set_max_acceleration(0.5 * l.max_acceleration);
    o->set_max_jerk(0.5 * l.max_jerk);
  }
  const PlanPathCall slow = Plan(slowed);
  ASSERT_TRUE(slow.status.ok()) << Describe(slow.status);
  Assembled b;
  ASSERT_TRUE(AssembleStream(slow, &b));
  ASSERT_TRUE(b.summary.ok());
  EXPECT_EQ(b.header.robot_id(), a.header.robot_id()) << "overrides are not a new robot";
  EXPECT_GT(b.summary.duration(), 1.3 * a.summary.duration());
  for (const v1::SegmentReport& r : b.reports) {
    // Ratios are to the overridden limits.
    EXPECT_LE(r.max_joint_velocity_ratio(), 1 + 1e-6) << r.segment_id();
    EXPECT_LE(r.max_joint_acceleration_ratio(), 1 + 1e-6) << r.segment_id();
    EXPECT_LE(r.max_joint_jerk_ratio(), 1.10) << r.segment_id();
    EXPECT_FALSE(r.motion().empty());
  }
}

TEST_F(PlanPathServiceTest, MalformedJointLimitOverridesAreInvalidArgumentNamingTheField) {
  auto with = [&](const std::string& name, double v, double a, double j) {
    v1::PlanPathRequest request = ShortProgram().Request(Ur5());
    v1::JointLimitOverride* o = request.mutable_robot()->add_joint_limits();
    o->set_joint_name(name);
    o->set_max_velocity(v);
    o->set_max_acceleration(a);
    o->set_max_jerk(j);
    return Plan(request).status;
  };
  EXPECT_TRUE(IsInvalidArgument(with("elbow_joint", -1, 0, 0), "robot.joint_limits[0].max_velocity",
                                {"finite"}));
  EXPECT_TRUE(IsInvalidArgument(with("elbow_joint", 0, kNaN, 0),
                                "robot.joint_limits[0].max_acceleration", {"finite"}));
  EXPECT_TRUE(IsInvalidArgument(with("elbow_joint", 0, 0, -5), "robot.joint_limits[0].max_jerk",
                                {"finite"}));
  EXPECT_TRUE(IsInvalidArgument(with("no_such_joint", 1, 0, 0), "robot.joint_limits[0].joint_name",
                                {"no_such_joint"}));
  v1::PlanPathRequest twice = ShortProgram().Request(Ur5());
  for (int i = 0; i < 2; ++i)
    twice.mutable_robot()->add_joint_limits()->set_joint_name("elbow_joint");
  EXPECT_TRUE(IsInvalidArgument(Plan(twice).status, "robot.joint_limits[1].joint_name", {"twice"}));
  v1::PlanPathRequest unknown_profile = ShortProgram().Request(Ur5());
  unknown_profile.set_profile(static_cast<v1::PlanPathRequest::Profile>(7));
  EXPECT_TRUE(IsInvalidArgument(Plan(unknown_profile).status, "profile", {"TRAPEZOID"}));
}

TEST_F(PlanPathServiceTest, RobotInfoReportsTheJerkLimitAndItsSource) {
  v1::GetRobotRequest get;
  get.set_robot_id(ur5_id_);
  v1::RobotInfo info;
  ASSERT_TRUE(stubs_.GetRobot(get, &info).ok());
  ASSERT_EQ(info.joints_size(), 6);
  for (const v1::JointInfo& j : info.joints()) {
    EXPECT_DOUBLE_EQ(j.max_jerk(), 10.0 * j.max_acceleration()) << j.name();
    EXPECT_EQ(j.jerk_source(), "default: 10 x max_acceleration per second");
  }
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

TEST_F(PlanPathServiceTest, JerkSoSmallTheMoveWouldExceedThePointBudgetIsRefusedAtOnce) {
  // 1e-9 rad/s^3 on every joint: the first MoveJ alone would take ~1e3 s,
  // far past --max_trajectory_points at 4 ms; refused before any sample.
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  for (const std::string& name : ur5_.chain().dof_names) {
    v1::JointLimitOverride* o = request.mutable_robot()->add_joint_limits();
    o->set_joint_name(name);
    o->set_max_jerk(1e-9);
  }
  const auto started = std::chrono::steady_clock::now();
  const PlanPathCall call = Plan(request);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 2.0);
  EXPECT_TRUE(IsInvalidArgument(call.status, "segments[0]", {"samples"}));
  EXPECT_TRUE(call.messages.empty()) << call.messages.size() << " messages before the error";
}

TEST_F(PlanPathServiceTest, NaNOrNegativeJerkInASpeedIsInvalidArgumentNamingIt) {
  v1::PlanPathRequest nan = ShortProgram().Request(Ur5());
  nan.mutable_segments(1)->mutable_speed()->set_linear_jerk(kNaN);
  EXPECT_TRUE(IsInvalidArgument(Plan(nan).status, "segments[1].speed.linear_jerk", {}));
  v1::PlanPathRequest negative = ShortProgram().Request(Ur5());
  negative.mutable_segments(1)->mutable_speed()->set_angular_jerk(-1);
  EXPECT_TRUE(IsInvalidArgument(Plan(negative).status, "segments[1].speed.angular_jerk", {}));
}

TEST_F(PlanPathServiceTest, HugeSpeedsStillGiveAtLeastOneSampleStepOnTheGrid) {
  // Speeds so large the profile would last ~0 s: the segment still ends on
  // the grid, one sample time later at least, and within the joints' limits.
  Program program(kUr5Start);
  program.MoveL("flash", Down(0.40, 0.0, 0.2501), 1e6);
  v1::PlanPathRequest request = program.Request(Ur5());
  request.mutable_segments(0)->mutable_speed()->set_linear_acceleration(1e9);
  request.mutable_segments(0)->mutable_speed()->set_linear_jerk(1e12);
  const PlanPathCall call = Plan(request);
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  ASSERT_GE(got.time.size(), 2u);
  for (std::size_t k = 0; k < got.time.size(); ++k) {
    EXPECT_NEAR(got.time[k], 0.004 * static_cast<double>(k), 1e-12) << "sample " << k;
  }
  for (const v1::SegmentReport& r : got.reports) {
    EXPECT_LE(r.max_joint_velocity_ratio(), 1 + 1e-6);
    EXPECT_LE(r.max_joint_acceleration_ratio(), 1 + 1e-6);
  }
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

TEST_F(PlanPathServiceTest, TimeSynchronisedMoveJPlansOverGrpcAndAnUnknownSyncIsNamed) {
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  request.mutable_segments(2)->mutable_movej()->set_sync(v1::MoveJ::TIME);
  const PlanPathCall call = Plan(request);
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_TRUE(got.summary.ok());
  request.mutable_segments(2)->mutable_movej()->set_sync(static_cast<v1::MoveJ::Sync>(9));
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "segments[2].movej.sync", {"TIME"}));
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

// `pose` moved by (x, y, 0) in the base frame.
v1::Pose Beside(Eigen::Isometry3d pose, double x, double y) {
  pose.translation() += Eigen::Vector3d(x, y, 0.0);
  return WirePose(pose);
}

TEST_F(PlanPathServiceTest, NearlyCollinearMoveCIsArcDegenerateWithItsRadius) {
  // The via 0.1 mm off the 10 cm line start -> target: a circle of ~12 m.
  auto at = [&](double x, double y) { return Beside(ur5_.Fk(kUr5Start), x, y); };
  Program program(kUr5Start);
  program.MoveC("flat_arc", at(0.05, 0.0001), at(0.1, 0.0), 0.1);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_FALSE(got.summary.ok());
  const v1::Diagnostic* arc = FindDiagnostic(got.summary, v1::ARC_DEGENERATE);
  ASSERT_NE(arc, nullptr) << got.summary.ShortDebugString();
  EXPECT_NE(arc->message().find("radius 12."), std::string::npos) << arc->message();
}

TEST_F(PlanPathServiceTest, MoveCWhoseViaIsOutOfReachSaysSoBeforeSampling) {
  // Start and target 4 cm apart, the via 1.5 m away: the via (and most of
  // the circle) is beyond the UR5's reach; said about the via, no sample.
  auto at = [&](double x, double y) { return Beside(ur5_.Fk(kUr5Start), x, y); };
  Program program(kUr5Start);
  program.MoveC("far_via", at(0.02, 1.5), at(0.04, 0.0), 0.1);
  const PlanPathCall call = Plan(program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_FALSE(got.summary.ok());
  const v1::Diagnostic* unreachable = FindDiagnostic(got.summary, v1::TARGET_UNREACHABLE);
  ASSERT_NE(unreachable, nullptr) << got.summary.ShortDebugString();
  EXPECT_EQ(unreachable->message().rfind("via: ", 0), 0u) << unreachable->message();
  ASSERT_EQ(got.reports.size(), 1u);
  EXPECT_EQ(got.reports[0].point_count(), 0);
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

TEST_F(PlanPathServiceTest, ASegmentsSourceComesBackOnEveryDiagnosticAboutIt) {
  // The second segment's target is 2 m away: its TARGET_UNREACHABLE (and
  // every other finding about it) names the program line it came from.
  Program program(kUr5Start);
  program.MoveJPose("approach", Down(0.40, 0.0, 0.25), 0.5).MoveL("too_far", Down(2.0, 0.5, 0.3));
  v1::PlanPathRequest request = program.Request(Ur5());
  request.mutable_segments(0)->set_source("glue.mod:12");
  request.mutable_segments(1)->set_source("glue.mod:13 p20");
  const PlanPathCall call = Plan(request);
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  int about_the_second = 0;
  for (const v1::Diagnostic& d : got.summary.diagnostics()) {
    if (d.segment_id() != "too_far") continue;
    EXPECT_EQ(d.source(), "glue.mod:13 p20") << d.ShortDebugString();
    ++about_the_second;
  }
  EXPECT_GT(about_the_second, 0);
  request.mutable_segments(1)->set_source(std::string(300, 'x'));
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "segments[1].source", {"256"}));
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

// Zones over gRPC: CNT on the approach MoveJ and a DISTANCE zone larger
// than half of the MoveL blend and come back as blend reports, the oversized
// one with ZONE_REDUCED saying to what; the cycle is shorter than with fine
// stops by the time the blends report saved. A CNT percent outside [0, 100]
// is refused naming the field.
TEST_F(PlanPathServiceTest, ZonesBlendOverGrpcAndSayWhatTheyDid) {
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  const PlanPathCall fine_call = Plan(request);
  Assembled fine;
  ASSERT_TRUE(AssembleStream(fine_call, &fine));
  request.mutable_segments(0)->mutable_zone()->set_kind(v1::Zone::CNT);
  request.mutable_segments(0)->mutable_zone()->set_percent(50);
  // The MoveL is about 0.11 m long: a 0.5 m zone is reduced to its half.
  request.mutable_segments(1)->mutable_zone()->set_kind(v1::Zone::DISTANCE);
  request.mutable_segments(1)->mutable_zone()->set_distance(0.5);
  const PlanPathCall call = Plan(request);
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  Assembled got;
  ASSERT_TRUE(AssembleStream(call, &got));
  EXPECT_TRUE(got.summary.ok()) << got.summary.ShortDebugString();
  ASSERT_EQ(got.reports.size(), 3u);
  ASSERT_TRUE(got.reports[0].has_blend());
  ASSERT_TRUE(got.reports[1].has_blend());
  EXPECT_FALSE(got.reports[2].has_blend());
  const v1::Diagnostic* reduced = FindDiagnostic(got.summary, v1::ZONE_REDUCED);
  ASSERT_NE(reduced, nullptr);
  EXPECT_EQ(reduced->segment_id(), "down");
  EXPECT_EQ(reduced->severity(), v1::SEVERITY_WARNING);
  EXPECT_LT(reduced->value(), 0.5 * 0.12);
  EXPECT_LE(got.reports[1].blend().zone_radius(), reduced->value() + 1e-12);
  const double saved = got.reports[0].blend().time_saved() + got.reports[1].blend().time_saved();
  EXPECT_GT(saved, 0.0);
  EXPECT_NEAR(fine.summary.duration() - got.summary.duration(), saved, 1e-9);
  // Every sample still on the grid, one per sample time.
  for (std::size_t k = 0; k < got.time.size(); ++k) {
    ASSERT_NEAR(got.time[k], 0.004 * k, 1e-9) << "sample " << k;
  }
  request.mutable_segments(0)->mutable_zone()->set_percent(150);
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "segments[0].zone.percent", {"150"}));
}

// orientation_mode VIA needs a via point: on a MoveL it is refused naming
// the field, as is an orientation mode the server does not know.
TEST_F(PlanPathServiceTest, ViaOrientationOnAMoveLAndUnknownModesAreNamed) {
  v1::PlanPathRequest request = ShortProgram().Request(Ur5());
  request.mutable_segments(1)->mutable_movel()->set_orientation_mode(v1::MoveL::VIA);
  EXPECT_TRUE(
      IsInvalidArgument(Plan(request).status, "segments[1].movel.orientation_mode", {"MoveC"}));
  request.mutable_segments(1)->mutable_movel()->set_orientation_mode(
      static_cast<v1::MoveL::OrientationMode>(9));
  EXPECT_TRUE(IsInvalidArgument(Plan(request).status, "segments[1].movel.orientation_mode", {"9"}));
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

v1::CollisionObject BoxAt(const std::string& id, const Eigen::Vector3d& centre,
                          const Eigen::Vector3d& size) {
  v1::CollisionObject o;
  o.set_id(id);
  *o.mutable_pose() = WirePose(centre.x(), centre.y(), centre.z(), 0, 0, 0, 1);
  o.mutable_shape()->mutable_box()->mutable_size()->set_x(size.x());
  o.mutable_shape()->mutable_box()->mutable_size()->set_y(size.y());
  o.mutable_shape()->mutable_box()->mutable_size()->set_z(size.z());
  return o;
}

// A 0.3 m MoveL along +y on the UR5, whose links are approximated by
// capsules of 5 cm between consecutive link origins (its meshes are not
// sent). A box around the middle of the TCP's line: COLLISION naming a link
// and the box, over samples that hold every one where the TCP is inside the
// box. The same path beside a box placed 2 cm beyond the farthest any
// capsule reaches (from ComputeFk's link origins at every sample, + 5 cm):
// collision-free.
TEST_F(PlanPathServiceTest, AMoveLThroughABoxCollidesAndTwoCentimetresClearDoesNot) {
  Program program(kUr5Start);
  program.MoveJPose("approach", Down(0.40, -0.15, 0.30), 0.5)
      .MoveL("line", Down(0.40, 0.15, 0.30), 0.25);
  v1::PlanPathRequest request = program.Request(Ur5());
  request.set_include_tcp(true);
  Assembled free_run;
  ASSERT_TRUE(AssembleStream(Plan(request), &free_run));
  ASSERT_TRUE(free_run.summary.ok());
  EXPECT_FALSE(free_run.summary.collision_checked()) << "no scene, no geometry of its own";

  // The box around the line's middle, and the samples with the TCP in it.
  const Eigen::Vector3d centre(0.40, 0.0, 0.30), size(0.08, 0.08, 0.08);
  std::vector<long> tcp_inside;
  for (std::size_t k = 0; k < free_run.tcp.size(); ++k) {
    const Eigen::Vector3d p = ToIsometry(free_run.tcp[k]).translation();
    if (((p - centre).cwiseAbs().array() <= 0.5 * size.array()).all()) tcp_inside.push_back(k);
  }
  ASSERT_GT(tcp_inside.size(), 10u);
  v1::PlanPathRequest blocked = request;
  *blocked.mutable_scene()->mutable_scene()->add_objects() = BoxAt("fixture", centre, size);
  Assembled hit;
  ASSERT_TRUE(AssembleStream(Plan(blocked), &hit));
  EXPECT_FALSE(hit.summary.ok());
  EXPECT_TRUE(hit.summary.collision_checked());
  EXPECT_FALSE(hit.summary.collision_free());
  long first = -1, last = -1;
  for (const v1::Diagnostic& d : hit.summary.diagnostics()) {
    if (d.code() != v1::COLLISION) continue;
    EXPECT_EQ(d.severity(), v1::SEVERITY_ERROR);
    EXPECT_EQ(d.contact().other(), "fixture");
    EXPECT_FALSE(d.contact().link().empty());
    EXPECT_GT(d.contact().depth(), 0.0);
    EXPECT_FALSE(d.segment_id().empty());
    if (first < 0 || d.point_index() < first) first = d.point_index();
    // "at samples i..j": the last sample of this stretch.
    const std::string& m = d.message();
    const auto dots = m.find("..");
    if (dots != std::string::npos) last = std::max(last, std::stol(m.substr(dots + 2)));
  }
  ASSERT_GE(first, 0) << hit.summary.ShortDebugString();
  EXPECT_LE(first, tcp_inside.front());
  EXPECT_GE(last, tcp_inside.back());

  // The farthest +x any capsule reaches over the path: link origins from
  // ComputeFk, plus the capsule radius.
  double reach_x = -1e9;
  for (std::size_t k = 0; k < free_run.time.size(); ++k) {
    v1::ComputeFkRequest fk;
    *fk.mutable_robot() = Ur5();
    fk.mutable_joints()->Add(free_run.positions.begin() + 6 * k,
                             free_run.positions.begin() + 6 * (k + 1));
    fk.set_all_links(true);
    v1::ComputeFkResponse links;
    ASSERT_TRUE(stubs_.ComputeFk(fk, &links).ok());
    for (const v1::LinkPose& l : links.links()) {
      reach_x = std::max(reach_x, l.pose().position().x() + 0.05);
    }
  }
  v1::PlanPathRequest beside = request;
  const double face = reach_x + 0.02;
  *beside.mutable_scene()->mutable_scene()->add_objects() =
      BoxAt("wall", {face + 0.1, 0.0, 0.3}, {0.2, 1.0, 1.0});
  Assembled clear;
  ASSERT_TRUE(AssembleStream(Plan(beside), &clear));
  EXPECT_TRUE(clear.summary.ok()) << clear.summary.ShortDebugString();
  EXPECT_TRUE(clear.summary.collision_checked());
  EXPECT_TRUE(clear.summary.collision_free());
  // 3 cm closer it touches.
  beside.mutable_scene()
      ->mutable_scene()
      ->mutable_objects(0)
      ->mutable_pose()
      ->mutable_position()
      ->set_x(face + 0.1 - 0.03);
  Assembled touching;
  ASSERT_TRUE(AssembleStream(Plan(beside), &touching));
  EXPECT_FALSE(touching.summary.collision_free());
}

// A robot with URDF primitives of its own is checked for self-collision by
// default: a MoveJ that folds its forearm back onto its first link reports
// that pair; asking for no self-collision check does not.
TEST_F(PlanPathServiceTest, AMoveJThatFoldsTheArmIntoItselfReportsThePair) {
  constexpr const char* kArm = R"(<?xml version="1.0"?>
<robot name="folding_arm">
  <link name="base"><collision><origin xyz="0 0 -0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="link1"><collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision></link>
  <link name="link2"><collision><origin xyz="0 0 0.2"/><geometry><box size="0.06 0.06 0.4"/></geometry></collision></link>
  <link name="link3"><collision><origin xyz="0 0 0.15"/><geometry><sphere radius="0.06"/></geometry></collision></link>
  <link name="tool"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="link1"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" velocity="1" effort="1"/></joint>
  <joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0 0 0.4"/><axis xyz="0 1 0"/><limit lower="-3.0" upper="3.0" velocity="1" effort="1"/></joint>
  <joint name="j3" type="revolute"><parent link="link2"/><child link="link3"/><origin xyz="0 0 0.4"/><axis xyz="0 1 0"/><limit lower="-3.0" upper="3.0" velocity="1" effort="1"/></joint>
  <joint name="tool_joint" type="fixed"><parent link="link3"/><child link="tool"/><origin xyz="0 0 0.2"/></joint>
</robot>)";
  Program program({0.0, 0.0, 0.0});
  program.MoveJ("fold", {0.0, 2.6, 2.9});
  v1::RobotRef robot;
  robot.set_urdf(kArm);
  v1::PlanPathRequest request = program.Request(robot);
  Assembled got;
  ASSERT_TRUE(AssembleStream(Plan(request), &got));
  EXPECT_FALSE(got.summary.ok());
  EXPECT_TRUE(got.summary.collision_checked());
  const v1::Diagnostic* fold = FindDiagnostic(got.summary, v1::COLLISION);
  ASSERT_NE(fold, nullptr);
  EXPECT_EQ(fold->contact().link(), "link1");
  EXPECT_EQ(fold->contact().other(), "link3");
  EXPECT_EQ(fold->segment_id(), "fold");
  request.set_check_self_collision(false);
  Assembled unchecked;
  ASSERT_TRUE(AssembleStream(Plan(request), &unchecked));
  EXPECT_TRUE(unchecked.summary.ok());
  EXPECT_FALSE(unchecked.summary.collision_checked());
}

}  // namespace
}  // namespace motiond_test
