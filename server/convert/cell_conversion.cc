#include "server/convert/cell_conversion.h"

#include <cmath>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/motion/motion_request.h"
#include "server/convert/proto_conversion.h"

namespace motion::server {

absl::StatusOr<CellRequest> CellRequestFromProto(const v1::ValidateCellRequest& request) {
  CellRequest out;
  const int n = request.robots_size();
  if (n == 0) return absl::InvalidArgumentError("robots: a cell needs at least one robot");
  if (n > CellLimits::kMaxRobots) {
    return absl::InvalidArgumentError(absl::StrCat(
        "robots: ", n, " robots, more than the limit of ", CellLimits::kMaxRobots, " per cell"));
  }
  double dt = request.sample_time();
  if (dt == 0.0) dt = MotionDefaults::kSampleTime;
  if (!std::isfinite(dt) || dt < 1e-4) {
    return absl::InvalidArgumentError(
        absl::StrCat("sample_time: must be finite and >= 1e-4 s, got ", request.sample_time()));
  }
  if (!std::isfinite(request.safety_margin()) || request.safety_margin() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("safety_margin: must be finite and >= 0 m, got ", request.safety_margin()));
  }
  out.options.sample_time = dt;
  out.options.safety_margin = request.safety_margin();
  out.options.record_clearance = request.report_clearance();
  std::set<std::string> names;
  for (int i = 0; i < n; ++i) {
    const v1::CellRobot& r = request.robots(i);
    const std::string field = absl::StrCat("robots[", i, "]");
    if (r.name().empty()) return absl::InvalidArgumentError(absl::StrCat(field, ".name: empty"));
    if (!names.insert(r.name()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".name: '", r.name(), "' is already the name of another robot"));
    }
    if (!r.has_program()) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".program: missing"));
    }
    if (r.program().segments_size() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".program.segments: empty"));
    }
    if (!r.has_robot() && !r.program().has_robot()) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".robot: missing"));
    }
    if (!std::isfinite(r.start_time()) || r.start_time() < 0 ||
        r.start_time() > CellLimits::kMaxStartTime) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".start_time: must be finite, in [0, ",
                                                     CellLimits::kMaxStartTime, "] s, got ",
                                                     r.start_time()));
    }
    absl::StatusOr<Pose> base =
        OptionalPoseFromProto(r.has_base_pose(), r.base_pose(), absl::StrCat(field, ".base_pose"));
    if (!base.ok()) return base.status();
    const double own = r.program().sample_time();
    if (own != 0.0 && own != dt) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".program.sample_time: ", own, " s, not the cell's ", dt, " s"));
    }
    v1::PlanPathRequest program = r.program();
    if (r.has_robot()) *program.mutable_robot() = r.robot();
    program.set_sample_time(dt);
    out.programs.push_back(std::move(program));
    out.base_poses.push_back(*base);
  }
  return out;
}

void CellVerdictToProto(const CellVerdict& verdict, v1::ValidateCellResponse* out) {
  out->set_collision_free(verdict.collision_free);
  out->set_min_clearance(verdict.min_clearance);
  for (const CellContact& c : verdict.contacts) {
    v1::CellContact* p = out->add_contacts();
    p->set_robot_a(c.robot_a);
    p->set_link_a(c.link_a);
    p->set_robot_b(c.robot_b);
    p->set_other(c.other);
    p->set_start_time(c.start_time);
    p->set_end_time(c.end_time);
    p->set_depth(c.depth);
  }
  for (double t : verdict.clearance_times) out->add_clearance_time(t);
  for (double d : verdict.clearance) out->add_clearance(d);
}

}  // namespace motion::server
