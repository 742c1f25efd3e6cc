// ValidateCell's cost: N UR5 arms (2, 4, 8) on a circle facing its centre,
// each running a ~10 s program sampled at 4 ms, validated as one cell, beside
// the same programs validated one by one (ValidatePath, one request at a
// time, each with the same floor in its own base frame). Both through gRPC
// on loopback against an in-process motiond; and the cell check alone in
// core (ValidateCell on the planned trajectories, planning excluded).
//
// Benchmarks report, they do not gate. Writes JSON (--out) and prints
// markdown. Flags: --out=PATH --workers=N --repeats=N --robots=2,4,8.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "core/motion_core.h"
#include "json_writer.h"
#include "motion/v1/motion_planner.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/convert/proto_conversion.h"
#include "server/runtime/motiond_server.h"

namespace {

namespace v1 = motion::v1;
constexpr double kPi = 3.14159265358979323846;
constexpr double kSampleTime = 0.004;
constexpr double kCircleRadius = 1.0;  // m, bases to the cell's centre

struct Flags {
  std::string out = "cell_bench.json";
  int workers = 0;  // 0: cores
  int repeats = 3;
  std::vector<int> robots = {2, 4, 8};
};

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      const std::string prefix = std::string("--") + name + "=";
      return a.rfind(prefix, 0) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char* v = value("out")) {
      f.out = v;
    } else if (const char* v = value("workers")) {
      f.workers = std::atoi(v);
    } else if (const char* v = value("repeats")) {
      f.repeats = std::max(1, std::atoi(v));
    } else if (const char* v = value("robots")) {
      f.robots.clear();
      std::stringstream list(v);
      for (std::string n; std::getline(list, n, ',');) f.robots.push_back(std::atoi(n.c_str()));
    } else {
      throw std::runtime_error("unknown flag " + a);
    }
  }
  return f;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Robot i of n: its base on the circle, its x axis toward the centre.
Eigen::Isometry3d Base(int i, int n) {
  const double angle = 2 * kPi * i / n;
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = kCircleRadius * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0);
  X.linear() = Eigen::AngleAxisd(angle + kPi, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

// A floor under the cell, as a scene in frame X_FC (the cell in frame F).
v1::Scene Floor(const Eigen::Isometry3d& X_FC) {
  v1::Scene scene;
  v1::CollisionObject* floor = scene.add_objects();
  floor->set_id("floor");
  Eigen::Isometry3d X_CO = Eigen::Isometry3d::Identity();
  X_CO.translation() = Eigen::Vector3d(0, 0, -0.08);
  motion::server::PoseToProto(X_FC * X_CO, floor->mutable_pose());
  v1::Box* box = floor->mutable_shape()->mutable_box();
  box->mutable_size()->set_x(4.0);
  box->mutable_size()->set_y(4.0);
  box->mutable_size()->set_z(0.02);
  return scene;
}

// From upright, three reaches toward the centre at different pan angles and
// back, slowed to about 10 s.
v1::PlanPathRequest Program(const std::string& robot_id) {
  v1::PlanPathRequest path;
  path.mutable_robot()->set_robot_id(robot_id);
  const std::vector<double> up = {0.0, -kPi / 2, 0.0, -kPi / 2, 0.0, 0.0};
  for (double q : up) path.add_start_joints(q);
  for (double pan : {0.0, 0.4, -0.4}) {
    for (bool down : {true, false}) {
      v1::MotionSegment* move = path.add_segments();
      std::vector<double> q = up;
      q[0] = pan;
      if (down) q[1] = -0.5;
      for (double v : q) move->mutable_movej()->mutable_joints()->add_values(v);
    }
  }
  path.set_sample_time(kSampleTime);
  path.set_speed_override(0.305);
  return path;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Row {
  int robots = 0;
  double program_duration = 0, cell = 0, one_by_one = 0, core_check = 0;
  double start_search = 0, last_start = 0;  ///< find_start_times: wall time, robot N-1's start
  bool collision_free = false;
  int contacts = 0;
  double min_clearance = 0;
};

class Bench {
 public:
  explicit Bench(const Flags& flags) : flags_(flags) {
    motion::server::ServerOptions options;
    options.listen = "127.0.0.1:0";
    if (flags.workers > 0) options.workers = flags.workers;
    auto started = motion::server::MotiondServer::Start(options);
    if (!started.ok()) throw std::runtime_error(started.status().ToString());
    server_ = *std::move(started);
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                       grpc::InsecureChannelCredentials());
    planner_ = v1::MotionPlanner::NewStub(channel);
    auto registry = v1::RobotRegistry::NewStub(channel);
    urdf_ = ReadFile(std::string(MOTIOND_ROBOTS_DIR) + "/ur5.urdf");
    grpc::ClientContext context;
    v1::RegisterRobotRequest request;
    request.set_urdf(urdf_);
    v1::RegisterRobotResponse response;
    if (!registry->RegisterRobot(&context, request, &response).ok()) {
      throw std::runtime_error("RegisterRobot failed");
    }
    robot_id_ = response.robot_id();
  }

  Row Run(int n) {
    Row row;
    row.robots = n;
    v1::ValidateCellRequest cell;
    cell.set_sample_time(kSampleTime);
    *cell.mutable_scene()->mutable_scene() = Floor(Eigen::Isometry3d::Identity());
    for (int i = 0; i < n; ++i) {
      v1::CellRobot* r = cell.add_robots();
      r->set_name("arm" + std::to_string(i));
      r->mutable_robot()->set_robot_id(robot_id_);
      *r->mutable_program() = Program(robot_id_);
      motion::server::PoseToProto(Base(i, n), r->mutable_base_pose());
    }
    std::vector<double> cell_times, single_times, core_times;
    for (int rep = 0; rep < flags_.repeats; ++rep) {
      v1::ValidateCellResponse response;
      grpc::ClientContext context;
      const auto started = std::chrono::steady_clock::now();
      const grpc::Status status = planner_->ValidateCell(&context, cell, &response);
      cell_times.push_back(Seconds(started));
      if (!status.ok()) throw std::runtime_error("ValidateCell: " + status.error_message());
      row.collision_free = response.collision_free();
      row.contacts = response.contacts_size();
      row.min_clearance = response.min_clearance();
      row.program_duration = response.robots(0).result().cycle_time();
      single_times.push_back(OneByOne(n));
    }
    core_times = CoreCheck(n);
    // The same cell with start times suggested (once: it is the slow path).
    cell.set_find_start_times(true);
    {
      v1::ValidateCellResponse response;
      grpc::ClientContext context;
      const auto started = std::chrono::steady_clock::now();
      const grpc::Status status = planner_->ValidateCell(&context, cell, &response);
      row.start_search = Seconds(started);
      if (!status.ok()) throw std::runtime_error("ValidateCell: " + status.error_message());
      row.last_start = response.suggested_start_times_size() == n
                           ? response.suggested_start_times(n - 1)
                           : std::nan("");
    }
    row.cell = Median(cell_times);
    row.one_by_one = Median(single_times);
    row.core_check = Median(core_times);
    return row;
  }

 private:
  // Each robot's program with the floor in its base frame, one at a time.
  double OneByOne(int n) {
    double total = 0;
    grpc::ClientContext context;
    auto stream = planner_->ValidatePath(&context);
    for (int i = 0; i < n; ++i) {
      v1::ValidatePathRequest request;
      request.set_request_id(std::to_string(i));
      *request.mutable_path() = Program(robot_id_);
      *request.mutable_path()->mutable_scene()->mutable_scene() = Floor(Base(i, n).inverse());
      v1::ValidatePathResponse response;
      const auto started = std::chrono::steady_clock::now();
      if (!stream->Write(request) || !stream->Read(&response)) {
        throw std::runtime_error("ValidatePath stream broke");
      }
      total += Seconds(started);
      if (response.error_code() != 0) throw std::runtime_error(response.error_message());
    }
    stream->WritesDone();
    stream->Finish();
    return total;
  }

  // The cell check alone, on trajectories planned once through PlanPath.
  std::vector<double> CoreCheck(int n) {
    auto model = *motion::RobotModel::FromUrdf(urdf_);
    auto chain = *model->Chain();
    auto collision = motion::RobotCollisionModel::Build(*chain, model->link_collisions());
    std::vector<double> times, positions;
    grpc::ClientContext context;
    auto reader = planner_->PlanPath(&context, Program(robot_id_));
    for (v1::PlanPathResponse m; reader->Read(&m);) {
      if (!m.has_chunk()) continue;
      times.insert(times.end(), m.chunk().time().begin(), m.chunk().time().end());
      positions.insert(positions.end(), m.chunk().positions().begin(), m.chunk().positions().end());
    }
    reader->Finish();
    std::vector<motion::CellRobotProgram> robots;
    for (int i = 0; i < n; ++i) {
      motion::CellRobotProgram r;
      r.name = "arm" + std::to_string(i);
      r.chain = chain;
      r.collision = collision;
      r.X_CB = Base(i, n);
      r.times = times;
      r.positions = positions;
      r.self_collision = false;  // as the service decides for the UR5's stand-ins
      robots.push_back(std::move(r));
    }
    std::vector<motion::CollisionObject> objects;
    motion::CollisionObject floor;
    floor.id = "floor";
    floor.pose.position = Eigen::Vector3d(0, 0, -0.08);
    floor.shape = motion::CollisionShape::Box(Eigen::Vector3d(4.0, 4.0, 0.02));
    auto scene = *motion::CollisionScene::Build({floor});
    motion::CellOptions options;
    options.sample_time = kSampleTime;
    std::vector<double> out;
    for (int rep = 0; rep < flags_.repeats; ++rep) {
      const auto started = std::chrono::steady_clock::now();
      auto verdict = motion::ValidateCell(robots, *scene, options);
      out.push_back(Seconds(started));
      if (!verdict.ok()) throw std::runtime_error(verdict.status().ToString());
    }
    return out;
  }

  Flags flags_;
  std::unique_ptr<motion::server::MotiondServer> server_;
  std::unique_ptr<v1::MotionPlanner::Stub> planner_;
  std::string urdf_, robot_id_;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const Flags flags = ParseFlags(argc, argv);
    Bench bench(flags);
    std::vector<Row> rows;
    for (int n : flags.robots) rows.push_back(bench.Run(n));
    std::printf(
        "| robots | program (s) | ValidateCell (s) | one by one (s) | ratio | cell check in core "
        "(s) | contacts | min clearance (m) | with find_start_times (s) | last robot's start (s) "
        "|\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows) {
      std::printf("| %d | %.2f | %.3f | %.3f | %.2f | %.3f | %d | %.3f | %.3f | %.3f |\n", r.robots,
                  r.program_duration, r.cell, r.one_by_one, r.cell / r.one_by_one, r.core_check,
                  r.contacts, r.min_clearance, r.start_search, r.last_start);
    }
    std::ofstream out(flags.out);
    motion_bench::JsonWriter json(out);
    json.BeginObject();
    json.Key("benchmark").String("cell_validation");
    json.Key("sample_time").Number(kSampleTime);
    json.Key("workers").Number(flags.workers > 0 ? flags.workers
                                                 : std::thread::hardware_concurrency());
    json.Key("repeats").Number(flags.repeats);
    json.Key("rows").BeginArray();
    for (const Row& r : rows) {
      json.BeginObject();
      json.Key("robots").Number(r.robots);
      json.Key("program_duration_s").Number(r.program_duration);
      json.Key("validate_cell_s").Number(r.cell);
      json.Key("one_by_one_s").Number(r.one_by_one);
      json.Key("ratio").Number(r.cell / r.one_by_one);
      json.Key("core_cell_check_s").Number(r.core_check);
      json.Key("collision_free").Bool(r.collision_free);
      json.Key("contacts").Number(r.contacts);
      json.Key("min_clearance_m").Number(r.min_clearance);
      json.Key("with_find_start_times_s").Number(r.start_search);
      json.Key("last_suggested_start_s").Number(r.last_start);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    out << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cell_bench: %s\n", e.what());
    return 1;
  }
}
