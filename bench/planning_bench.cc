// Planning benchmark: a 2 500-point MoveL, a mixed pick-and-place
// program and a glue bead with and without blended zones on a UR5, planned in core and through gRPC
// on loopback (in-process motiond, real socket, every chunk read), reported as time per path with
// the point count as a counter (time per point = time / points). Targets on this machine: 2 500
// points < 5 ms in core, < 15 ms end to end. The *_at_2v cases plan the same programs at the
// documented default accelerations (2 x velocity): the baseline of the effort-derived ones.
#include <benchmark/benchmark.h>

#include <thread>

#include "bench/ur5_bench_programs.h"
#include "clients/motion_client.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/model/robot_model.h"
#include "core/motion/path_planner.h"
#include "server/runtime/motiond_server.h"

namespace {

using bench_programs::Down;
using bench_programs::kHome;
using bench_programs::LongMoveL;
using bench_programs::ReadRobot;

motion::PathRequest PickAndPlace() {
  motion::PathRequest r;
  r.start_joints = kHome;
  auto movej = [](motion::Pose p) {
    motion::MotionSegment s;
    s.kind = motion::MotionKind::kMoveJ;
    s.target = p;
    s.speed.joint_fraction = 0.5;
    return s;
  };
  auto movel = [](motion::Pose p, double v) {
    motion::MotionSegment s;
    s.kind = motion::MotionKind::kMoveL;
    s.target = p;
    s.speed.linear_velocity = v;
    return s;
  };
  r.segments = {movej(Down(0.45, 0.20, 0.30)),       movel(Down(0.45, 0.20, 0.15), 0.1),
                movel(Down(0.45, 0.20, 0.30), 0.25), movej(Down(0.30, -0.35, 0.30)),
                movel(Down(0.30, -0.35, 0.16), 0.1), movel(Down(0.30, -0.35, 0.30), 0.25)};
  motion::MotionSegment home;
  home.kind = motion::MotionKind::kMoveJ;
  home.joint_target = true;
  home.target_joints = kHome;
  r.segments.push_back(home);
  return r;
}

// A glue bead: approach, a 0.1 m square at 0.1 m/s with 5-20 mm DISTANCE
// zones at its corners, a retreat MoveJ with CNT 50 into the way home;
// `blended` false: the same program with every zone a fine stop.
motion::PathRequest GlueBead(bool blended) {
  motion::PathRequest r;
  r.start_joints = kHome;
  auto zone = [&](double distance, double percent) {
    motion::ZoneSpec z;
    if (!blended) return z;
    z.kind = percent > 0 ? motion::ZoneKind::kCnt : motion::ZoneKind::kDistance;
    z.distance = distance;
    z.percent = percent;
    return z;
  };
  auto movel = [](motion::Pose p, motion::ZoneSpec z) {
    motion::MotionSegment s;
    s.kind = motion::MotionKind::kMoveL;
    s.target = p;
    s.speed.linear_velocity = 0.1;
    s.zone = z;
    return s;
  };
  motion::MotionSegment approach;
  approach.kind = motion::MotionKind::kMoveJ;
  approach.target = Down(0.40, 0.0, 0.20);
  approach.speed.joint_fraction = 0.5;
  r.segments = {approach,
                movel(Down(0.50, 0.0, 0.20), zone(0.005, 0)),
                movel(Down(0.50, 0.1, 0.20), zone(0.010, 0)),
                movel(Down(0.40, 0.1, 0.20), zone(0.015, 0)),
                movel(Down(0.40, 0.0, 0.20), zone(0.020, 0)),
                movel(Down(0.40, 0.0, 0.30), motion::ZoneSpec())};
  motion::MotionSegment retreat;
  retreat.kind = motion::MotionKind::kMoveJ;
  retreat.joint_target = true;
  retreat.target_joints = {0.4, -1.3, 1.4, -1.7, -1.5, 0.0};
  retreat.speed.joint_fraction = 0.5;
  retreat.zone = zone(0, 50);
  motion::MotionSegment home = retreat;
  home.target_joints = kHome;
  home.zone = motion::ZoneSpec();
  r.segments.push_back(retreat);
  r.segments.push_back(home);
  return r;
}

void PlanInCore(benchmark::State& state, const motion::PathRequest& request) {
  auto model = *motion::RobotModel::FromUrdf(ReadRobot("ur5.urdf"));
  auto chain = *model->Chain();
  motion::ChainDataCache cache;
  motion::IkData& ws = cache.For(chain);
  std::size_t points = 0;
  double cycle = 0.0;
  for (auto _ : state) {
    auto result = motion::PlanPath(*chain, ws, request, motion::PathLimits());
    if (!result.ok() || !result->ok) {
      state.SkipWithError("planning failed");
      return;
    }
    points = result->trajectory.size();
    cycle = result->duration;
    benchmark::DoNotOptimize(result->trajectory.positions.data());
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["cycle_s"] = cycle;
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(points) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::OneK::kIs1000);
}

// The same program as a PlanPathRequest message.
motion::v1::PlanPathRequest ToProto(const motion::PathRequest& r, const std::string& robot_id) {
  motion::v1::PlanPathRequest out;
  out.mutable_robot()->set_robot_id(robot_id);
  out.mutable_start_joints()->Add(r.start_joints.begin(), r.start_joints.end());
  for (const auto& s : r.segments) {
    auto* seg = out.add_segments();
    auto pose = [](const motion::Pose& p, motion::v1::Pose* o) {
      o->mutable_position()->set_x(p.position.x());
      o->mutable_position()->set_y(p.position.y());
      o->mutable_position()->set_z(p.position.z());
      o->mutable_orientation()->set_x(p.orientation.x());
      o->mutable_orientation()->set_y(p.orientation.y());
      o->mutable_orientation()->set_z(p.orientation.z());
      o->mutable_orientation()->set_w(p.orientation.w());
    };
    seg->mutable_speed()->set_joint_fraction(s.speed.joint_fraction);
    seg->mutable_speed()->set_linear_velocity(s.speed.linear_velocity);
    if (s.kind == motion::MotionKind::kMoveJ && s.joint_target) {
      seg->mutable_movej()->mutable_joints()->mutable_values()->Add(s.target_joints.begin(),
                                                                    s.target_joints.end());
    } else if (s.kind == motion::MotionKind::kMoveJ) {
      pose(s.target, seg->mutable_movej()->mutable_pose());
    } else {
      pose(s.target, seg->mutable_movel()->mutable_target());
    }
  }
  return out;
}

void PlanThroughGrpc(benchmark::State& state, const motion::PathRequest& request) {
  motion::server::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.workers = 1;
  auto server = *motion::server::MotiondServer::Start(options);
  motion::client::ClientOptions client_options;
  client_options.target = "127.0.0.1:" + std::to_string(server->port());
  auto client = motion::client::MotionClient::Connect(client_options);
  motion::v1::RegisterRobotResponse registered;
  if (!client->RegisterRobot(ReadRobot("ur5.urdf"), &registered).ok()) {
    state.SkipWithError("register failed");
    return;
  }
  const motion::v1::PlanPathRequest message = ToProto(request, registered.robot_id());
  long points = 0;
  for (auto _ : state) {
    points = 0;
    bool ok = false;
    grpc::Status status = client->PlanPath(message, [&](const motion::v1::PlanPathResponse& m) {
      if (m.has_chunk()) points += m.chunk().time_size();
      if (m.has_summary()) ok = m.summary().ok();
    });
    if (!status.ok() || !ok) {
      state.SkipWithError("PlanPath failed");
      break;
    }
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(points) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::OneK::kIs1000);
  server->Shutdown(std::chrono::milliseconds(100));
}

// The UR5's tool sideways past its wrist singularity (q5 from 0.15 down to
// ~0.04 rad and back) at 0.25 m/s: the joints cannot follow the programmed
// timing, so the path is timed by SolvePathTiming (the slow path).
motion::PathRequest NearSingularMoveL() {
  const auto robot = motion::RobotModel::FromUrdf(ReadRobot("ur5.urdf"));
  const auto chain = *(*robot)->Chain();
  motion::ChainData data(*chain);
  const Eigen::VectorXd q0 = (Eigen::VectorXd(6) << 0.0, -1.2, 1.5, 0.0, 0.15, 0.0).finished();
  const Eigen::Isometry3d start = motion::ForwardKinematics(*chain, data, q0);
  const Eigen::Vector3d p0 = start.translation();
  const Eigen::Vector3d tangent = Eigen::Vector3d(-p0.y(), p0.x(), 0.0).normalized();
  Eigen::Isometry3d goal = start;
  goal.translation() = p0 - 0.4 * tangent;
  motion::PathRequest r;
  r.start_joints.assign(q0.data(), q0.data() + 6);
  motion::MotionSegment s;
  s.kind = motion::MotionKind::kMoveL;
  s.orientation = motion::OrientationMode::kFixed;
  s.target = motion::Pose::FromIsometry(goal);
  s.speed.linear_velocity = 0.25;
  r.segments = {s};
  return r;
}

// The baseline of the accelerations from the efforts, in the same run: the same program with
// every UR5 joint at the documented default, acceleration 2 x velocity and jerk 10 x that, set
// as a request's limits are.
motion::PathRequest AtDefaultAccelerations(motion::PathRequest request) {
  const auto robot = motion::RobotModel::FromUrdf(ReadRobot("ur5.urdf"));
  request.joint_limits = (*(*robot)->Chain())->dof_limits;
  for (motion::JointLimits& l : request.joint_limits) {
    l.max_acceleration = motion::kDefaultAccelerationPerVelocity * l.max_velocity;
    l.max_jerk = motion::kDefaultJerkPerAcceleration * l.max_acceleration;
  }
  return request;
}

BENCHMARK_CAPTURE(PlanInCore, movel_2500_points, LongMoveL())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, near_singular_movel, NearSingularMoveL())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, pick_and_place, PickAndPlace())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, glue_bead_fine_stops, GlueBead(false))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, glue_bead_blended, GlueBead(true))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, movel_2500_points_at_2v, AtDefaultAccelerations(LongMoveL()))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, near_singular_movel_at_2v,
                  AtDefaultAccelerations(NearSingularMoveL()))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, pick_and_place_at_2v, AtDefaultAccelerations(PickAndPlace()))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, glue_bead_fine_stops_at_2v, AtDefaultAccelerations(GlueBead(false)))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanInCore, glue_bead_blended_at_2v, AtDefaultAccelerations(GlueBead(true)))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanThroughGrpc, movel_2500_points, LongMoveL())
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(PlanThroughGrpc, pick_and_place, PickAndPlace())
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
