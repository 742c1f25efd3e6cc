#include "clients/motionctl/commands.h"
#include "clients/motionctl/limits_file.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "clients/motionctl/output.h"
#include "clients/motionctl/program_file.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/scene_file.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

namespace {

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

}  // namespace

int RunValidate(MotionClient& client, const CommandLine& cli) {
  const std::vector<std::string> paths = ProgramPaths(cli.positional);
  if (paths.empty()) return PrintUsage(stderr), 1;
  std::vector<v1::ValidatePathRequest> requests;
  std::map<std::string, std::string> robot_ids;  // the program's robot word -> id
  std::string scene_id;
  if (cli.Has("scene")) {
    v1::Scene scene;
    std::string scene_error;
    if (!ReadSceneFile(cli.Flag("scene"), &scene, &scene_error)) {
      return std::fprintf(stderr, "motionctl: %s\n", scene_error.c_str()), 1;
    }
    scene_id = client.AddScene(scene);
  }
  for (const std::string& path : paths) {
    ProgramFile program;
    std::string error;
    if (!ReadProgramFile(path, &program, &error)) {
      return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
    }
    if (!program.robot.empty()) {
      auto [it, inserted] = robot_ids.emplace(program.robot, "");
      if (inserted) it->second = ResolveRobotArgument(client, program.robot, cli.Flag("meshes"));
      if (it->second.empty()) return 1;
      program.request.mutable_robot()->set_robot_id(it->second);
    }
    if (!ApplyLimitsFlag(client, cli, program.request.robot().robot_id())) return 1;
    // One scene for every program, sent by id: a replica that lacks it
    // gets it once, inline, from the client library.
    if (!scene_id.empty()) program.request.mutable_scene()->set_scene_id(scene_id);
    if (cli.Has("margin")) program.request.set_safety_margin(std::atof(cli.Flag("margin").c_str()));
    if (std::string error;
        cli.Has("allow") &&
        !ParseAllowedPairs(cli.Flag("allow"), program.request.mutable_allowed_collisions(),
                           &error)) {
      return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
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
  if (!status.ok()) return ReportRpcError("ValidatePath", status);

  int failed = 0;
  for (const auto& [id, r] : answers) failed += r.ok() ? 0 : 1;
  if (cli.Has("json")) {
    std::cout << "[";
    bool first = true;
    for (const auto& request : requests) {
      std::cout << (first ? "\n" : ",\n") << ToJson(answers[request.request_id()]);
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

}  // namespace motionctl
