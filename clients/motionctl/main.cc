// motionctl: command-line client of motiond. `motionctl help` lists commands.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/program_file.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/stats_command.h"

namespace {

constexpr char kUsage[] = R"(usage: motionctl [--target=HOST:PORT] [--json] COMMAND ...

commands:
  register FILE.urdf            register a robot, print its id and chain
  robots                        list registered robots
  robot ROBOT                   joints, limits and candidate chains of a robot
  fk ROBOT q1 ... qn            flange and TCP pose (--tool="x y z qx qy qz qw",
                                --all_links to add every link of the chain)
  jacobian ROBOT q1 ... qn      6 x n Jacobian, manipulability, condition number
  validate FILE|DIR ...         validate many programs over one stream (progress on
                                stderr, a table, exit 1 if any failed; --json)
  plan FILE.json                plan a motion program (see clients/examples/), print the
                                segment reports; --csv=OUT writes every sample
  ik ROBOT x y z qx qy qz qw    joints that put the TCP at the pose (--seed="q1 ... qn",
                                --tool=..., --solver=lm|kdl_nr_jl|kdl_lma, --all for every
                                distinct solution found)
  stats                         the server's key figures from its Prometheus /metrics:
                                requests by method and code, p50/p99 latency, solve latency
                                by operation, IK success, registry, solver pool
                                (--metrics=HOST:PORT, default 127.0.0.1:9464; --json)

ROBOT is a robot_id (sha256:...), a .urdf file, or a registered robot's name.
flags: --target (default 127.0.0.1:50051; "a:1,b:2" balances round robin),
       --json, --base=LINK --tip=LINK (a chain other than the default),
       --timeout=SECONDS (default 10), --tls (with system roots) or
       --tls_ca=CA.pem [--tls_cert=C.pem --tls_key=K.pem for mTLS]
       [--tls_server_name=NAME]
)";

using motion::client::MotionClient;
namespace v1 = motion::v1;
using motionctl::CommandLine;

bool ParseDoubles(const std::vector<std::string>& words, std::size_t from,
                  google::protobuf::RepeatedField<double>* out) {
  for (std::size_t i = from; i < words.size(); ++i) {
    char* end = nullptr;
    const double value = std::strtod(words[i].c_str(), &end);
    if (end == words[i].c_str() || *end != '\0') {
      std::cerr << "motionctl: '" << words[i] << "' is not a number\n";
      return false;
    }
    out->Add(value);
  }
  return true;
}

bool ParseTool(const CommandLine& cli, v1::Pose* tool) {
  std::istringstream in(cli.Flag("tool"));
  double v[7];
  for (double& x : v) {
    if (!(in >> x)) {
      std::cerr << "motionctl: --tool wants 7 numbers \"x y z qx qy qz qw\"\n";
      return false;
    }
  }
  tool->mutable_position()->set_x(v[0]);
  tool->mutable_position()->set_y(v[1]);
  tool->mutable_position()->set_z(v[2]);
  tool->mutable_orientation()->set_x(v[3]);
  tool->mutable_orientation()->set_y(v[4]);
  tool->mutable_orientation()->set_z(v[5]);
  tool->mutable_orientation()->set_w(v[6]);
  return true;
}

void PrintRobotInfo(const v1::RobotInfo& info, bool details) {
  std::printf("robot    %s\nid       %s\nchain    %s -> %s (%d DOF)\n", info.name().c_str(),
              info.robot_id().c_str(), info.base_link().c_str(), info.tip_link().c_str(),
              info.dof());
  if (!details) return;
  std::printf("rule     %s\n\n%-24s %-10s %12s %12s %10s %10s\n", info.chain_rule().c_str(),
              "joint", "type", "lower", "upper", "vel", "acc");
  for (const auto& j : info.joints()) {
    std::printf("%-24s %-10s %12.6f %12.6f %10.4f %10.4f\n", j.name().c_str(),
                v1::JointType_Name(j.type()).c_str(), j.lower(), j.upper(), j.max_velocity(),
                j.max_acceleration());
  }
  for (const auto& m : info.mimic_joints()) {
    std::printf("mimic    %s = %g * %s + %g\n", m.name().c_str(), m.multiplier(),
                m.mimics().c_str(), m.offset());
  }
  std::printf("\nchains (--base/--tip):\n");
  for (const auto& c : info.candidate_chains()) {
    std::printf("  %s -> %s (%d DOF)\n", c.base_link().c_str(), c.tip_link().c_str(), c.dof());
  }
}

int Register(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return std::fprintf(stderr, "%s", kUsage), 1;
  std::ifstream in(cli.positional[1], std::ios::binary);
  if (!in) return std::fprintf(stderr, "motionctl: cannot read %s\n", cli.positional[1].c_str()), 1;
  std::stringstream text;
  text << in.rdbuf();
  v1::RegisterRobotResponse response;
  grpc::Status status = client.RegisterRobot(text.str(), &response);
  if (!status.ok()) return motionctl::ReportRpcError("RegisterRobot", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(response) << "\n", 0;
  PrintRobotInfo(response.info(), false);
  return 0;
}

int Robots(MotionClient& client, const CommandLine& cli) {
  v1::ListRobotsResponse response;
  grpc::Status status = client.ListRobots(&response);
  if (!status.ok()) return motionctl::ReportRpcError("ListRobots", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(response) << "\n", 0;
  std::printf("%-24s %4s  %-34s %s\n", "name", "dof", "chain", "robot_id");
  for (const auto& r : response.robots()) {
    const std::string chain = r.base_link() + " -> " + r.tip_link();
    std::printf("%-24s %4d  %-34s %s\n", r.name().c_str(), r.dof(), chain.c_str(),
                r.robot_id().c_str());
  }
  return 0;
}

int Robot(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return std::fprintf(stderr, "%s", kUsage), 1;
  v1::GetRobotRequest request;
  request.set_robot_id(motionctl::ResolveRobotArgument(client, cli.positional[1]));
  if (request.robot_id().empty()) return 1;
  request.set_base_link(cli.Flag("base"));
  request.set_tip_link(cli.Flag("tip"));
  v1::RobotInfo info;
  grpc::Status status = client.GetRobot(request, &info);
  if (!status.ok()) return motionctl::ReportRpcError("GetRobot", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(info) << "\n", 0;
  PrintRobotInfo(info, true);
  return 0;
}

// Fills robot and joints of an FK/Jacobian request from the command line.
template <typename Request>
bool FillRobotAndJoints(MotionClient& client, const CommandLine& cli, Request* request) {
  if (cli.positional.size() < 2) return std::fprintf(stderr, "%s", kUsage), false;
  const std::string id = motionctl::ResolveRobotArgument(client, cli.positional[1]);
  if (id.empty()) return false;
  request->mutable_robot()->set_robot_id(id);
  request->mutable_robot()->set_base_link(cli.Flag("base"));
  request->mutable_robot()->set_tip_link(cli.Flag("tip"));
  if (cli.Has("tool") && !ParseTool(cli, request->mutable_tool())) return false;
  return ParseDoubles(cli.positional, 2, request->mutable_joints());
}

int Fk(MotionClient& client, const CommandLine& cli) {
  v1::ComputeFkRequest request;
  if (!FillRobotAndJoints(client, cli, &request)) return 1;
  request.set_all_links(cli.Has("all_links"));
  v1::ComputeFkResponse response;
  grpc::Status status = client.ComputeFk(request, &response);
  if (!status.ok()) return motionctl::ReportRpcError("ComputeFk", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(response) << "\n", 0;
  std::printf("flange  %s\ntcp     %s\n", motionctl::FormatPose(response.flange()).c_str(),
              motionctl::FormatPose(response.tcp()).c_str());
  for (const auto& link : response.links()) {
    std::printf("  %-22s %s\n", link.link().c_str(), motionctl::FormatPose(link.pose()).c_str());
  }
  return 0;
}

int Jacobian(MotionClient& client, const CommandLine& cli) {
  v1::ComputeJacobianRequest request;
  if (!FillRobotAndJoints(client, cli, &request)) return 1;
  v1::ComputeJacobianResponse response;
  grpc::Status status = client.ComputeJacobian(request, &response);
  if (!status.ok()) return motionctl::ReportRpcError("ComputeJacobian", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(response) << "\n", 0;
  static const char* kRows[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  for (int r = 0; r < response.rows(); ++r) {
    std::printf("%s ", kRows[r % 6]);
    for (int c = 0; c < response.cols(); ++c) {
      std::printf(" %10.6f", response.data(r * response.cols() + c));
    }
    std::printf("\n");
  }
  std::printf("manipulability %.6g   condition number %.6g\n", response.manipulability(),
              response.condition_number());
  return 0;
}

bool ParseSeed(const CommandLine& cli, google::protobuf::RepeatedField<double>* seed) {
  std::istringstream in(cli.Flag("seed"));
  std::vector<std::string> words{std::istream_iterator<std::string>(in), {}};
  return ParseDoubles(words, 0, seed);
}

int Ik(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 9) return std::fprintf(stderr, "%s", kUsage), 1;
  v1::ComputeIkRequest request;
  const std::string id = motionctl::ResolveRobotArgument(client, cli.positional[1]);
  if (id.empty()) return 1;
  request.mutable_robot()->set_robot_id(id);
  request.mutable_robot()->set_base_link(cli.Flag("base"));
  request.mutable_robot()->set_tip_link(cli.Flag("tip"));
  google::protobuf::RepeatedField<double> pose;
  if (!ParseDoubles(cli.positional, 2, &pose)) return 1;
  auto* target = request.mutable_target();
  target->mutable_position()->set_x(pose[0]);
  target->mutable_position()->set_y(pose[1]);
  target->mutable_position()->set_z(pose[2]);
  target->mutable_orientation()->set_x(pose[3]);
  target->mutable_orientation()->set_y(pose[4]);
  target->mutable_orientation()->set_z(pose[5]);
  target->mutable_orientation()->set_w(pose[6]);
  if (cli.Has("tool") && !ParseTool(cli, request.mutable_tool())) return 1;
  if (cli.Has("seed") && !ParseSeed(cli, request.mutable_seed())) return 1;
  request.mutable_options()->set_solver(cli.Flag("solver"));
  if (cli.Has("all")) request.mutable_options()->set_mode(v1::IkOptions::ALL);
  v1::IkResult result;
  grpc::Status status = client.ComputeIk(request, &result);
  if (!status.ok()) return motionctl::ReportRpcError("ComputeIk", status);
  if (cli.Has("json")) return std::cout << motionctl::ToJson(result) << "\n", result.ok() ? 0 : 3;
  std::printf(
      "%s  (%s)  position error %.3g m, orientation error %.3g rad, %d iterations, "
      "%d starts\n",
      result.ok() ? "ok" : "FAILED", result.outcome().c_str(), result.position_error(),
      result.orientation_error(), result.iterations(), result.attempts());
  std::printf("joints ");
  for (double q : result.joints()) std::printf(" %.6f", q);
  std::printf("\n");
  for (const auto& s : result.solutions()) {
    std::printf("  alt  ");
    for (double q : s.joints()) std::printf(" %.6f", q);
    std::printf("\n");
  }
  for (const auto& d : result.diagnostics()) {
    std::printf("%s %s: %s\n", v1::Severity_Name(d.severity()).c_str(),
                v1::DiagnosticCode_Name(d.code()).c_str(), d.message().c_str());
  }
  return result.ok() ? 0 : 3;
}

const char* MotionName(const v1::MotionSegment& s) {
  return s.has_movej() ? "movej" : s.has_movel() ? "movel" : s.has_movec() ? "movec" : "?";
}

int Plan(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return std::fprintf(stderr, "%s", kUsage), 1;
  motionctl::ProgramFile program;
  std::string error;
  if (!motionctl::ReadProgramFile(cli.positional[1], &program, &error)) {
    return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
  }
  v1::PlanPathRequest& request = program.request;
  if (!program.robot.empty()) {
    const std::string id = motionctl::ResolveRobotArgument(client, program.robot);
    if (id.empty()) return 1;
    request.mutable_robot()->set_robot_id(id);
  }
  const std::string csv_path = cli.Flag("csv");
  request.set_include_tcp(!csv_path.empty());
  std::FILE* csv = nullptr;
  if (!csv_path.empty()) {
    csv = std::fopen(csv_path.c_str(), "w");
    if (!csv) return std::fprintf(stderr, "motionctl: cannot write %s\n", csv_path.c_str()), 1;
  }
  v1::PlanPathHeader header;
  v1::PlanPathSummary summary;
  std::vector<v1::SegmentReport> reports;
  long chunks = 0;
  grpc::Status status = client.PlanPath(request, [&](const v1::PlanPathResponse& m) {
    if (m.has_header()) {
      header = m.header();
      if (csv) {
        std::fprintf(csv, "time");
        for (const char* kind : {"q", "qd", "qdd"}) {
          for (const auto& name : header.joint_names())
            std::fprintf(csv, ",%s_%s", kind, name.c_str());
        }
        std::fprintf(csv, ",tcp_x,tcp_y,tcp_z,tcp_qx,tcp_qy,tcp_qz,tcp_qw\n");
      }
    } else if (m.has_chunk()) {
      ++chunks;
      const auto& c = m.chunk();
      const int dof = header.dof();
      for (int k = 0; csv && k < c.time_size(); ++k) {
        std::fprintf(csv, "%.6f", c.time(k));
        for (const auto* values : {&c.positions(), &c.velocities(), &c.accelerations()}) {
          for (int j = 0; j < dof; ++j) std::fprintf(csv, ",%.9g", values->Get(k * dof + j));
        }
        const auto& p = c.tcp(k);
        std::fprintf(csv, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p.position().x(),
                     p.position().y(), p.position().z(), p.orientation().x(), p.orientation().y(),
                     p.orientation().z(), p.orientation().w());
      }
    } else if (m.has_segment_report()) {
      reports.push_back(m.segment_report());
    } else if (m.has_summary()) {
      summary = m.summary();
    }
  });
  if (csv) std::fclose(csv);
  if (!status.ok()) return motionctl::ReportRpcError("PlanPath", status);
  if (cli.Has("json")) {
    v1::ValidatePathResponse out;  // the same report shape, without samples
    out.set_ok(summary.ok());
    out.set_cycle_time(summary.duration());
    for (const auto& r : reports) *out.add_segment_reports() = r;
    *out.mutable_diagnostics() = summary.diagnostics();
    std::cout << motionctl::ToJson(out) << "\n";
    return summary.ok() ? 0 : 3;
  }
  std::printf("%-14s %-6s %-4s %9s %7s %7s %7s %10s\n", "segment", "motion", "ok", "duration",
              "points", "v/vmax", "a/amax", "cart err");
  for (const auto& r : reports) {
    std::printf("%-14s %-6s %-4s %8.3fs %7lld %7.3f %7.3f %10.2e\n", r.segment_id().c_str(),
                MotionName(request.segments(r.segment_index())), r.ok() ? "yes" : "NO",
                r.duration(), static_cast<long long>(r.point_count()), r.max_joint_velocity_ratio(),
                r.max_joint_acceleration_ratio(), r.max_cartesian_error());
    if (r.arc_radius() > 0) {
      std::printf("%14s arc radius %.4f m, angle %.4f rad, length %.4f m\n", "", r.arc_radius(),
                  r.arc_angle(), r.path_length());
    }
  }
  for (const auto& d : summary.diagnostics()) {
    std::printf("%s %s [%s #%lld]: %s\n", v1::Severity_Name(d.severity()).c_str(),
                v1::DiagnosticCode_Name(d.code()).c_str(), d.segment_id().c_str(),
                static_cast<long long>(d.point_index()), d.message().c_str());
  }
  std::printf("%s: cycle time %.3f s, %lld samples at %.4f s in %ld chunks\n",
              summary.ok() ? "ok" : "FAILED", summary.duration(),
              static_cast<long long>(summary.point_count()), header.sample_time(), chunks);
  if (!csv_path.empty()) std::printf("samples written to %s\n", csv_path.c_str());
  return summary.ok() ? 0 : 3;
}

// Every *.json under the arguments (files as given, folders searched).
std::vector<std::string> ProgramPaths(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (std::filesystem::is_directory(args[i])) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::recursive_directory_iterator(args[i])) {
        if (e.is_regular_file() && e.path().extension() == ".json") found.push_back(e.path());
      }
      std::sort(found.begin(), found.end());
      paths.insert(paths.end(), found.begin(), found.end());
    } else {
      paths.push_back(args[i]);
    }
  }
  return paths;
}

int Validate(MotionClient& client, const CommandLine& cli) {
  const std::vector<std::string> paths = ProgramPaths(cli.positional);
  if (paths.empty()) return std::fprintf(stderr, "%s", kUsage), 1;
  std::vector<v1::ValidatePathRequest> requests;
  std::map<std::string, std::string> robot_ids;  // the program's robot word -> id
  for (const std::string& path : paths) {
    motionctl::ProgramFile program;
    std::string error;
    if (!motionctl::ReadProgramFile(path, &program, &error)) {
      return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
    }
    if (!program.robot.empty()) {
      auto [it, inserted] = robot_ids.emplace(program.robot, "");
      if (inserted) it->second = motionctl::ResolveRobotArgument(client, program.robot);
      if (it->second.empty()) return 1;
      program.request.mutable_robot()->set_robot_id(it->second);
    }
    v1::ValidatePathRequest request;
    request.set_request_id(path);
    *request.mutable_path() = std::move(program.request);
    requests.push_back(std::move(request));
  }

  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, v1::ValidatePathResponse> answers;
  const bool progress = !cli.Has("json") && isatty(fileno(stderr));
  grpc::Status status = client.ValidatePaths(requests, [&](const v1::ValidatePathResponse& r) {
    answers[r.request_id()] = r;
    if (!progress) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = answers.size() / std::max(elapsed, 1e-3);
    const int width = 30;
    const int filled = static_cast<int>(width * answers.size() / requests.size());
    std::fprintf(stderr, "\r[%-*s] %zu/%zu  %.1f/s  ETA %.0fs ", width,
                 std::string(filled, '#').c_str(), answers.size(), requests.size(), rate,
                 (requests.size() - answers.size()) / std::max(rate, 1e-9));
  });
  if (progress) std::fprintf(stderr, "\n");
  if (!status.ok()) return motionctl::ReportRpcError("ValidatePath", status);

  int failed = 0;
  for (const auto& [id, r] : answers) failed += r.ok() ? 0 : 1;
  if (cli.Has("json")) {
    std::cout << "[";
    bool first = true;
    for (const auto& request : requests) {
      std::cout << (first ? "\n" : ",\n") << motionctl::ToJson(answers[request.request_id()]);
      first = false;
    }
    std::cout << "\n]\n";
    return failed ? 1 : 0;
  }
  std::printf("%-40s %-4s %-9s %9s  %s\n", "program", "ok", "reachable", "cycle", "first problem");
  for (const auto& request : requests) {
    const auto& r = answers[request.request_id()];
    std::string problem;
    if (r.error_code() != 0) {
      problem = "error " + std::to_string(r.error_code()) + ": " + r.error_message();
    }
    for (const auto& d : r.diagnostics()) {
      if (problem.empty() && d.severity() == v1::SEVERITY_ERROR) {
        problem = v1::DiagnosticCode_Name(d.code()) + " [" + d.segment_id() + "] " + d.message();
      }
    }
    if (problem.size() > 90) problem = problem.substr(0, 87) + "...";
    std::printf("%-40s %-4s %-9s %8.3fs  %s\n", request.request_id().c_str(), r.ok() ? "yes" : "NO",
                r.reachable() ? "yes" : "NO", r.cycle_time(), problem.c_str());
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu programs, %d failed, %.2f s (%.1f/s)\n", requests.size(), failed, elapsed,
              requests.size() / std::max(elapsed, 1e-9));
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const CommandLine cli =
      motionctl::ParseCommandLine(argc, argv, {"json", "all_links", "all", "help", "tls"});
  if (cli.positional.empty() || cli.Has("help") || cli.positional[0] == "help") {
    std::printf("%s", kUsage);
    return cli.positional.empty() && !cli.Has("help") ? 1 : 0;
  }
  // stats reads the metrics port over HTTP; it needs no gRPC channel.
  if (cli.positional[0] == "stats") return motionctl::Stats(cli);
  motion::client::ClientOptions options;
  options.target = cli.Flag("target", "127.0.0.1:50051");
  options.tls = cli.Has("tls");
  options.ca_file = cli.Flag("tls_ca");
  options.cert_file = cli.Flag("tls_cert");
  options.key_file = cli.Flag("tls_key");
  options.server_name = cli.Flag("tls_server_name");
  options.timeout = std::chrono::milliseconds(
      static_cast<long>(1000 * std::atof(cli.Flag("timeout", "10").c_str())));
  auto client = MotionClient::Connect(options);

  const std::string& command = cli.positional[0];
  if (command == "register") return Register(*client, cli);
  if (command == "robots") return Robots(*client, cli);
  if (command == "robot") return Robot(*client, cli);
  if (command == "fk") return Fk(*client, cli);
  if (command == "jacobian") return Jacobian(*client, cli);
  if (command == "ik") return Ik(*client, cli);
  if (command == "plan") return Plan(*client, cli);
  if (command == "validate") return Validate(*client, cli);
  std::fprintf(stderr, "motionctl: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 1;
}
