// The README's side-by-side task in C++: plan the UR5 glue program and print
// its summary (clients/python/examples/plan_glue.py and
// clients/node/examples/plan_glue.ts do the same in Python and TypeScript and
// print the same lines).
//   build/clients/plan_glue REPOSITORY [TARGET] [--csv=FILE]
// --csv writes every sample's time, q, qd, qdd at full precision (%.17g
// round-trips a double exactly), for the test that the three clients get
// bit-identical samples.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "clients/motion_client.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* Motion(const motion::v1::MotionSegment& s) {
  return s.has_movej() ? "movej" : s.has_movel() ? "movel" : "movec";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2)
    return std::fprintf(stderr, "usage: plan_glue REPOSITORY [TARGET] [--csv=FILE]\n"), 2;
  const std::string repository = argv[1];
  motion::client::ClientOptions options;
  std::string csv_path;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--csv=", 0) == 0) {
      csv_path = arg.substr(6);
    } else {
      options.target = arg;
    }
  }
  auto client = motion::client::MotionClient::Connect(options);
  const std::string robot_id = client->AddRobot(ReadFile(repository + "/robots/ur5.urdf"));

  // The program file is PlanPathRequest JSON whose "robot" names the robot
  // ("ur5"); this robot_id is that URDF.
  google::protobuf::Struct program;
  if (!google::protobuf::util::JsonStringToMessage(
           ReadFile(repository + "/clients/examples/ur5_glue_path.json"), &program)
           .ok()) {
    return std::fprintf(stderr, "plan_glue: cannot read the program\n"), 1;
  }
  program.mutable_fields()->erase("robot");
  std::string json;
  motion::v1::PlanPathRequest request;
  if (!google::protobuf::util::MessageToJsonString(program, &json).ok() ||
      !google::protobuf::util::JsonStringToMessage(json, &request).ok()) {
    return std::fprintf(stderr, "plan_glue: the program is not a PlanPathRequest\n"), 1;
  }
  request.mutable_robot()->set_robot_id(robot_id);

  std::vector<double> time, q, qd, qdd;
  std::vector<motion::v1::SegmentReport> segments;
  motion::v1::PlanPathSummary summary;
  motion::v1::PlanPathHeader header;
  const grpc::Status status = client->PlanPath(request, [&](const motion::v1::PlanPathResponse& m) {
    if (m.has_header()) header = m.header();
    if (m.has_chunk()) {
      time.insert(time.end(), m.chunk().time().begin(), m.chunk().time().end());
      q.insert(q.end(), m.chunk().positions().begin(), m.chunk().positions().end());
      qd.insert(qd.end(), m.chunk().velocities().begin(), m.chunk().velocities().end());
      qdd.insert(qdd.end(), m.chunk().accelerations().begin(), m.chunk().accelerations().end());
    }
    if (m.has_segment_report()) segments.push_back(m.segment_report());
    if (m.has_summary()) summary = m.summary();
  });
  if (!status.ok())
    return std::fprintf(stderr, "plan_glue: %s\n", status.error_message().c_str()), 1;

  const int dof = header.dof();
  std::printf("glue: ok=%s cycle %.3f s, %zu samples at %.3f s\n", summary.ok() ? "true" : "false",
              summary.duration(), time.size(), header.sample_time());
  for (const auto& s : segments) {
    std::printf("  %-12s %s  %.3f s  v/vmax %.3f\n", s.segment_id().c_str(),
                Motion(request.segments(s.segment_index())), s.duration(),
                s.max_joint_velocity_ratio());
  }
  std::printf("last q:");
  for (int j = 0; j < dof; ++j) std::printf(" %.6f", q[(time.size() - 1) * dof + j]);
  std::printf("\n");
  if (!csv_path.empty()) {
    std::FILE* csv = std::fopen(csv_path.c_str(), "w");
    if (!csv) return std::fprintf(stderr, "plan_glue: cannot write %s\n", csv_path.c_str()), 1;
    for (std::size_t k = 0; k < time.size(); ++k) {
      std::fprintf(csv, "%.17g", time[k]);
      for (const auto* values : {&q, &qd, &qdd}) {
        for (int j = 0; j < dof; ++j) std::fprintf(csv, ",%.17g", (*values)[k * dof + j]);
      }
      std::fprintf(csv, "\n");
    }
    std::fclose(csv);
  }
  return 0;
}
