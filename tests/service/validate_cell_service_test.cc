// ValidateCell over real gRPC: two bundled UR5 arms facing each other
// 1.2 m apart, each lowering its arm toward the other and raising it again.
// The truth is the test's own: both trajectories (from PlanPath) run through
// the test-side URDF forward kinematics (tests/unit/independent_fk.h), each
// link with a mesh the capsule motiond stands in for it (radius 0.05 m from
// the link's origin to the next link's), capsule distances in closed form,
// at four times the cell's sample rate. Then a start delay that clears the
// cell, the suggested one, and malformed requests.

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "independent_fk.h"
#include "motion/v1/info.grpc.pb.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

constexpr double kDt = 0.01;
constexpr double kBaseDistance = 1.2;
constexpr double kCapsuleRadius = 0.05;  // RobotCollisionModel::kApproximationRadius

// Distance from point x to segment q0-q1: the projection clamped.
double PointSegmentDistance(const Eigen::Vector3d& x, const Eigen::Vector3d& q0,
                            const Eigen::Vector3d& q1) {
  const Eigen::Vector3d d = q1 - q0;
  const double len2 = d.squaredNorm();
  const double t = len2 > 0 ? std::clamp((x - q0).dot(d) / len2, 0.0, 1.0) : 0.0;
  return (q0 + t * d - x).norm();
}

// Closest distance between segments p0-p1 and q0-q1 by a method of its own
// (not the closed form core uses): the distance from p(s) to the other
// segment is convex in s, so a golden-section search finds its minimum.
double SegmentDistance(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                       const Eigen::Vector3d& q0, const Eigen::Vector3d& q1) {
  auto f = [&](double s) { return PointSegmentDistance(p0 + s * (p1 - p0), q0, q1); };
  const double g = (std::sqrt(5.0) - 1) / 2;
  double lo = 0.0, hi = 1.0;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (int k = 0; k < 60; ++k) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = f(x2);
    }
  }
  return std::min({f(0.0), f(1.0), f1, f2});
}

// The program both arms run: from upright, down toward the other arm and
// back up (two fine-stopped MoveJ).
v1::PlanPathRequest Program(const std::string& robot_id) {
  v1::PlanPathRequest path;
  path.mutable_robot()->set_robot_id(robot_id);
  const std::vector<double> up = {0.0, -kPi / 2, 0.0, -kPi / 2, 0.0, 0.0};
  const std::vector<double> down = {0.0, -0.3, 0.0, -kPi / 2, 0.0, 0.0};
  for (double q : up) path.add_start_joints(q);
  int k = 0;
  for (const std::vector<double>* target : {&down, &up}) {
    v1::MotionSegment* move = path.add_segments();
    move->set_id(k++ == 0 ? "reach" : "retract");
    for (double q : *target) move->mutable_movej()->mutable_joints()->add_values(q);
  }
  path.set_sample_time(kDt);
  return path;
}

Eigen::Isometry3d BaseOfB() {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(kBaseDistance, 0, 0);
  X.linear() = Eigen::AngleAxisd(kPi, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

// A sampled trajectory, as PlanPath streamed it.
struct Samples {
  std::vector<double> time;
  std::vector<Eigen::VectorXd> q;
  double duration() const { return time.back(); }
  // Held before the start and after the end, linear between samples.
  Eigen::VectorXd At(double t) const {
    if (t <= time.front()) return q.front();
    if (t >= time.back()) return q.back();
    const std::size_t k = std::upper_bound(time.begin(), time.end(), t) - time.begin();
    const double s = (t - time[k - 1]) / (time[k] - time[k - 1]);
    return (1 - s) * q[k - 1] + s * q[k];
  }
};

// Per (link of a, link of b): the first and last instant of each run of
// consecutive dense instants in contact.
using Intervals =
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, double>>>;

class ValidateCellServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    v1::RegisterRobotResponse registered;
    ASSERT_TRUE(stubs_.RegisterRobot(ReadRobot("ur5.urdf"), &registered).ok());
    robot_id_ = registered.robot_id();
    const PlanPathCall call = CallPlanPath(stubs_.planner(), Program(robot_id_));
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    for (const v1::PlanPathResponse& m : call.messages) {
      if (!m.has_chunk()) continue;
      const v1::TrajectoryChunk& c = m.chunk();
      for (int i = 0; i < c.time_size(); ++i) {
        samples_.time.push_back(c.time(i));
        Eigen::VectorXd q(6);
        for (int j = 0; j < 6; ++j) q[j] = c.positions(i * 6 + j);
        samples_.q.push_back(q);
      }
    }
    ASSERT_GT(samples_.time.size(), 10u);
    // The chain points into the spec: both kept.
    spec_ = motion_test::ReadUrdfSpec(ReadRobot("ur5.urdf"));
    chain_ = motion_test::WalkChain(spec_, "base_link", "tool0");
    // Links with a <collision> mesh (every UR5 link of the chain but tool0).
    const std::string urdf = ReadRobot("ur5.urdf");
    for (const std::string& link : chain_.links) {
      const std::size_t at = urdf.find("<link name=\"" + link + "\"");
      const std::size_t end = urdf.find("</link>", at);
      const std::string body = urdf.substr(at, end - at);
      meshed_.push_back(body.find("<collision") != std::string::npos &&
                        body.find("<mesh") != std::string::npos);
    }
  }

  // The capsules of one arm at joints q, base at X_CB: (link, ends).
  std::vector<std::pair<std::string, std::pair<Eigen::Vector3d, Eigen::Vector3d>>> Capsules(
      const Eigen::Isometry3d& X_CB, const Eigen::VectorXd& q) const {
    const std::vector<Eigen::Isometry3d> poses = motion_test::IndependentLinkPoses(chain_, q);
    std::vector<std::pair<std::string, std::pair<Eigen::Vector3d, Eigen::Vector3d>>> out;
    for (std::size_t k = 0; k + 1 < chain_.links.size(); ++k) {
      if (!meshed_[k]) continue;
      out.push_back(
          {chain_.links[k], {X_CB * poses[k].translation(), X_CB * poses[k + 1].translation()}});
    }
    return out;
  }

  // f(link of a, link of b, distance) for every pair at cell time t, a
  // (base identity) started at 0 and b (BaseOfB) at `delay`.
  template <typename F>
  void ForEachPair(double t, double delay, F f) const {
    const auto a = Capsules(Eigen::Isometry3d::Identity(), samples_.At(t));
    const auto b = Capsules(BaseOfB(), samples_.At(t - delay));
    for (const auto& [la, sa] : a) {
      for (const auto& [lb, sb] : b) {
        f(la, lb, SegmentDistance(sa.first, sa.second, sb.first, sb.second) - 2 * kCapsuleRadius);
      }
    }
  }

  double NearestAt(double t, double delay) const {
    double nearest = 1e9;
    ForEachPair(t, delay, [&](const std::string&, const std::string&, double d) {
      nearest = std::min(nearest, d);
    });
    return nearest;
  }

  // The test's own contact intervals, every kDt / 4 over the cell's run.
  Intervals DenseContacts(double delay, double* min_distance = nullptr) const {
    Intervals out;
    double nearest = 1e9;
    const double end = samples_.duration() + delay;
    for (int k = 0; k * kDt / 4 <= end + 1e-12; ++k) {
      const double t = k * kDt / 4;
      ForEachPair(t, delay, [&](const std::string& la, const std::string& lb, double d) {
        nearest = std::min(nearest, d);
        if (d >= 0) return;
        std::vector<std::pair<double, double>>& runs = out[{la, lb}];
        if (!runs.empty() && t - runs.back().second < 0.5 * kDt) {
          runs.back().second = t;
        } else {
          runs.push_back({t, t});
        }
      });
    }
    if (min_distance) *min_distance = nearest;
    return out;
  }

  v1::ValidateCellRequest Cell(double delay_b) const {
    v1::ValidateCellRequest request;
    request.set_sample_time(kDt);
    for (int i = 0; i < 2; ++i) {
      v1::CellRobot* r = request.add_robots();
      r->set_name(i == 0 ? "left" : "right");
      r->mutable_robot()->set_robot_id(robot_id_);
      *r->mutable_program() = Program(robot_id_);
      r->mutable_program()->clear_robot();
      ToProto(i == 0 ? Eigen::Isometry3d::Identity() : BaseOfB(), r->mutable_base_pose());
      r->set_start_time(i == 0 ? 0.0 : delay_b);
    }
    return request;
  }

  grpc::Status Validate(const v1::ValidateCellRequest& request, v1::ValidateCellResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    return stubs_.planner().ValidateCell(&context, request, out);
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel()};
  std::string robot_id_;
  Samples samples_;
  motion_test::UrdfSpec spec_;
  motion_test::IndependentChain chain_;
  std::vector<bool> meshed_;
};

TEST_F(ValidateCellServiceTest, ArmsReachingIntoTheSameSpaceTogetherCollide) {
  const Intervals truth = DenseContacts(0.0);
  ASSERT_FALSE(truth.empty()) << "the test's arms must meet";
  v1::ValidateCellResponse response;
  const grpc::Status status = Validate(Cell(0.0), &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_FALSE(response.collision_free());
  ASSERT_EQ(response.robots_size(), 2);
  EXPECT_EQ(response.robots(0).name(), "left");
  EXPECT_TRUE(response.robots(0).result().ok());
  EXPECT_NEAR(response.robots(1).result().cycle_time(), samples_.duration(), 1e-9);
  EXPECT_LT(response.min_clearance(), 0.0);
  // Every pair the test finds in contact, during the interval it finds
  // (to a sample: the test sees every quarter sample, motiond every sample
  // and the halvings between).
  Intervals found;
  for (const v1::CellContact& c : response.contacts()) {
    EXPECT_EQ(c.robot_a(), "left");
    EXPECT_EQ(c.robot_b(), "right");
    EXPECT_GT(c.depth(), 0.0);
    found[{c.link_a(), c.other()}].push_back({c.start_time(), c.end_time()});
  }
  std::set<std::string> modelled(chain_.links.begin(), chain_.links.end());
  for (const auto& [pair, runs] : truth) {
    SCOPED_TRACE(pair.first + " - " + pair.second);
    ASSERT_EQ(found.count(pair), 1u);
    std::vector<std::pair<double, double>>& cell = found[pair];
    std::sort(cell.begin(), cell.end());
    ASSERT_EQ(cell.size(), runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k) {
      EXPECT_NEAR(cell[k].first, runs[k].first, kDt + 1e-9);
      EXPECT_NEAR(cell[k].second, runs[k].second, kDt + 1e-9);
    }
  }
  for (const auto& [pair, runs] : found) {
    if (modelled.count(pair.first) && modelled.count(pair.second)) {
      EXPECT_EQ(truth.count(pair), 1u) << pair.first << " - " << pair.second;
    }
  }
}

TEST_F(ValidateCellServiceTest, TheSecondArmStartedAfterTheFirstLeftIsClear) {
  const double delay = samples_.duration();
  double nearest = 0.0;
  ASSERT_TRUE(DenseContacts(delay, &nearest).empty());
  v1::ValidateCellResponse response;
  const grpc::Status status = Validate(Cell(delay), &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_TRUE(response.collision_free());
  EXPECT_EQ(response.contacts_size(), 0);
  // motiond measures at its instants, the test every quarter sample: the
  // test's minimum is no larger, and close.
  EXPECT_GE(response.min_clearance(), nearest - 1e-9);
  EXPECT_NEAR(response.min_clearance(), nearest, 0.01);
  // The clearance at every instant, against the test's at the same times.
  v1::ValidateCellRequest request = Cell(delay);
  request.set_report_clearance(true);
  v1::ValidateCellResponse report;
  ASSERT_TRUE(Validate(request, &report).ok());
  ASSERT_EQ(report.clearance_size(), report.clearance_time_size());
  ASSERT_GT(report.clearance_size(), static_cast<int>(samples_.time.size()));
  for (int k = 0; k < report.clearance_size(); k += 7) {
    const double t = report.clearance_time(k);
    EXPECT_NEAR(report.clearance(k), NearestAt(t, delay), 1e-6) << t;
  }
}

TEST_F(ValidateCellServiceTest, TheSuggestedDelayLiesBetweenAndValidates) {
  v1::ValidateCellRequest request = Cell(0.0);
  request.set_find_start_times(true);
  v1::ValidateCellResponse response;
  const grpc::Status status = Validate(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.suggested_start_times_size(), 2) << response.start_times_note();
  EXPECT_EQ(response.suggested_start_times(0), 0.0);
  const double delay = response.suggested_start_times(1);
  EXPECT_GT(delay, 0.0);
  EXPECT_LE(delay, samples_.duration() + kDt);
  // On the grid, clear by the test's own check and motiond's, and one
  // sample earlier not (the test's check, within its quarter samples).
  EXPECT_NEAR(delay / kDt, std::round(delay / kDt), 1e-6);
  EXPECT_TRUE(DenseContacts(delay).empty());
  v1::ValidateCellResponse clear;
  ASSERT_TRUE(Validate(Cell(delay), &clear).ok());
  EXPECT_TRUE(clear.collision_free());
  v1::ValidateCellResponse earlier;
  ASSERT_TRUE(Validate(Cell(delay - kDt), &earlier).ok());
  EXPECT_FALSE(earlier.collision_free());
  // The test's own minimum distance agrees with motiond's at the delay.
  double nearest = 0.0;
  DenseContacts(delay, &nearest);
  EXPECT_NEAR(clear.min_clearance(), nearest, 0.005);
  // Two samples earlier the test's quarter samples see it too (one sample
  // earlier the graze may fall between them).
  EXPECT_FALSE(DenseContacts(delay - 2 * kDt).empty());
}

TEST_F(ValidateCellServiceTest, MalformedCellsAreRefusedNamingTheField) {
  auto check = [&](const v1::ValidateCellRequest& request, const std::string& field,
                   const std::vector<std::string>& words) {
    v1::ValidateCellResponse response;
    EXPECT_TRUE(IsInvalidArgument(Validate(request, &response), field, words));
  };
  v1::ValidateCellRequest r = Cell(0.0);
  r.mutable_robots(1)->set_name("left");
  check(r, "robots[1].name", {"left", "already"});
  r = Cell(0.0);
  r.mutable_robots(1)->clear_program();
  check(r, "robots[1].program", {"missing"});
  r = Cell(0.0);
  r.mutable_robots(0)->set_start_time(-0.5);
  check(r, "robots[0].start_time", {"-0.5"});
  r = Cell(0.0);
  r.mutable_robots(0)->set_start_time(std::nan(""));
  check(r, "robots[0].start_time", {"finite"});
  r = Cell(0.0);
  *r.mutable_robots(1)->mutable_base_pose() = WirePose(1.2, 0, 0, 0, 0, 0, 0);
  check(r, "robots[1].base_pose.orientation", {"quaternion"});
  r = Cell(0.0);
  r.mutable_robots(1)
      ->mutable_program()
      ->mutable_segments(0)
      ->mutable_movej()
      ->mutable_joints()
      ->add_values(0.0);  // seven values for six joints
  v1::ValidateCellResponse response;
  const grpc::Status seven = Validate(r, &response);
  EXPECT_EQ(seven.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(seven);
  EXPECT_EQ(seven.error_message().rfind("robots[1].program.", 0), 0u) << Describe(seven);
  r = Cell(0.0);
  r.set_sample_time(-0.01);
  check(r, "sample_time", {"1e-4|0.0001"});
  r = Cell(0.0);
  r.set_safety_margin(-1);
  check(r, "safety_margin", {">= 0"});
  r = Cell(0.0);
  while (r.robots_size() < 1000) {
    v1::CellRobot* extra = r.add_robots();
    *extra = r.robots(0);
    extra->set_name("robot_" + std::to_string(r.robots_size()));
  }
  check(r, "robots", {"1000", "16"});
  check(v1::ValidateCellRequest(), "robots", {"at least one"});
}

TEST_F(ValidateCellServiceTest, GetServerInfoSaysCellsAndTheirLimits) {
  auto info = v1::Info::NewStub(server_.NewChannel());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::GetServerInfoResponse response;
  ASSERT_TRUE(info->GetServerInfo(&context, {}, &response).ok());
  const auto& words = response.capabilities();
  EXPECT_NE(std::find(words.begin(), words.end(), "cell_validation"), words.end());
  std::map<std::string, double> limits;
  for (const v1::ServerLimit& l : response.limits()) limits[l.name()] = l.value();
  // The documented limits (README "Cell validation").
  EXPECT_EQ(limits["max_cell_robots"], 16);
  EXPECT_EQ(limits["max_cell_instants"], 400000);
}

TEST_F(ValidateCellServiceTest, SixteenLongProgramsEachGetTheirShareOfTheCell) {
  // 16 slow MoveJ of about 27 s at 1 ms: 27 000 samples each, within one
  // ValidatePath's limit but beyond 400 000 / 16 for a cell.
  v1::ValidateCellRequest request;
  request.set_sample_time(0.001);
  for (int i = 0; i < 16; ++i) {
    v1::CellRobot* r = request.add_robots();
    r->set_name("arm" + std::to_string(i));
    *r->mutable_program() = SlowUr5MoveJ(robot_id_, 0.001);
    ToProto(Eigen::Isometry3d(Eigen::Translation3d(2.0 * i, 0, 0)), r->mutable_base_pose());
  }
  v1::ValidateCellResponse response;
  const grpc::Status status = Validate(request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(status);
  EXPECT_EQ(status.error_message().rfind("robots[", 0), 0u) << Describe(status);
  EXPECT_NE(status.error_message().find("24999"), std::string::npos) << Describe(status);
}

}  // namespace
}  // namespace motiond_test
