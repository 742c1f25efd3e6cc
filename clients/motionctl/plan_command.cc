#include "clients/motionctl/commands.h"
#include "clients/motionctl/limits_file.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "clients/motionctl/output.h"
#include "clients/motionctl/plan_plot_output.h"
#include "clients/motionctl/program_file.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/scene_file.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

namespace {

const char* MotionName(const v1::MotionSegment& s) {
  return s.has_movej() ? "movej" : s.has_movel() ? "movel" : s.has_movec() ? "movec" : "?";
}

}  // namespace

int RunPlan(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return PrintUsage(stderr), 1;
  ProgramFile program;
  std::string error;
  if (!ReadProgramFile(cli.positional[1], &program, &error)) {
    return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
  }
  v1::PlanPathRequest& request = program.request;
  if (!program.robot.empty()) {
    const std::string id = ResolveRobotArgument(client, program.robot, cli.Flag("meshes"));
    if (id.empty()) return 1;
    request.mutable_robot()->set_robot_id(id);
  }
  std::vector<v1::JointLimitOverride> flag_limits;
  if (!ApplyLimitsFlag(client, cli, request.robot().robot_id(), &flag_limits)) return 1;
  if (cli.Has("scene")) {
    std::string scene_error;
    if (!ReadSceneFile(cli.Flag("scene"), request.mutable_scene()->mutable_scene(), &scene_error)) {
      return std::fprintf(stderr, "motionctl: %s\n", scene_error.c_str()), 1;
    }
  }
  if (cli.Has("margin")) request.set_safety_margin(std::atof(cli.Flag("margin").c_str()));
  if (std::string error;
      cli.Has("allow") &&
      !ParseAllowedPairs(cli.Flag("allow"), request.mutable_allowed_collisions(), &error)) {
    return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
  }
  const std::string csv_path = cli.Flag("csv");
  PlanPlotOutput plot;
  if (!plot.Open(cli)) return 1;
  request.set_include_tcp(!csv_path.empty() || plot.enabled());
  // The plot's GetRobot may reach a server that never saw an inline URDF:
  // the client then registers it from what it remembers here.
  if (plot.enabled() && request.robot().robot_id().empty() && !request.robot().urdf().empty()) {
    (void)client.AddRobot(request.robot().urdf(),
                          std::vector<v1::MeshFile>(request.robot().meshes().begin(),
                                                    request.robot().meshes().end()));
  }
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
    plot.Add(m);
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
        std::fprintf(csv, "%.17g", c.time(k));
        for (const auto* values : {&c.positions(), &c.velocities(), &c.accelerations()}) {
          for (int j = 0; j < dof; ++j) std::fprintf(csv, ",%.17g", values->Get(k * dof + j));
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
  if (!status.ok()) return plot.Discard(), ReportRpcError("PlanPath", status);
  // The limits the server planned with: the request's own, else --limits'.
  const std::vector<v1::JointLimitOverride> limits =
      request.robot().joint_limits_size() > 0
          ? std::vector<v1::JointLimitOverride>(request.robot().joint_limits().begin(),
                                                request.robot().joint_limits().end())
          : flag_limits;
  const std::string program_name = cli.positional[1].substr(cli.positional[1].rfind('/') + 1);
  if (const int rc = plot.Write(client, limits, program_name); rc != 0) return rc;
  if (cli.Has("json")) {
    v1::ValidatePathResponse out;  // the same report shape, without samples
    out.set_ok(summary.ok());
    out.set_cycle_time(summary.duration());
    for (const auto& r : reports) *out.add_segment_reports() = r;
    *out.mutable_diagnostics() = summary.diagnostics();
    std::cout << ToJson(out) << "\n";
    return summary.ok() ? 0 : 3;
  }
  std::printf("%-14s %-6s %-4s %9s %7s %7s %7s %7s %10s\n", "segment", "motion", "ok", "duration",
              "points", "v/vmax", "a/amax", "j/jmax", "cart err");
  for (const auto& r : reports) {
    std::printf("%-14s %-6s %-4s %8.3fs %7lld %7.3f %7.3f %7.3f %10.2e\n", r.segment_id().c_str(),
                MotionName(request.segments(r.segment_index())), r.ok() ? "yes" : "NO",
                r.duration(), static_cast<long long>(r.point_count()), r.max_joint_velocity_ratio(),
                r.max_joint_acceleration_ratio(), r.max_joint_jerk_ratio(),
                r.max_cartesian_error());
    if (r.arc_radius() > 0) {
      std::printf("%14s arc radius %.4f m, angle %.4f rad, length %.4f m\n", "", r.arc_radius(),
                  r.arc_angle(), r.path_length());
    }
    if (r.has_joint_path()) {
      const v1::JointPathReport& p = r.joint_path();
      if (p.planned()) {
        const int corners = std::max(0, p.waypoints_size() - 2);
        std::printf(
            "%14s planned around obstacles in %.1f ms: %.3f rad (straight %.3f), %lld nodes; "
            "%d of %d corners rounded, %.3f s saved\n",
            "", 1e3 * p.planning_time(), p.length(), p.straight_length(),
            static_cast<long long>(p.nodes()), p.rounded_corners(), corners,
            p.rounding_time_saved());
      } else {
        std::printf("%14s straight motion clear (checked in %.1f ms)\n", "",
                    1e3 * p.planning_time());
      }
    }
    if (r.has_blend()) {
      const v1::BlendReport& b = r.blend();
      std::printf(
          "%14s blend %.3f-%.3f s in a %.4f m zone, corner missed by %.4f m, %.3f s saved\n", "",
          b.start_time(), b.end_time(), b.zone_radius(), b.corner_distance(), b.time_saved());
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
  if (plot.enabled()) std::printf("plot written to %s\n", plot.path().c_str());
  return summary.ok() ? 0 : 3;
}

}  // namespace motionctl
