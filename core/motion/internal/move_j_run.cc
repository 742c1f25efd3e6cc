#include "core/motion/internal/move_j_run.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/curve_sampling.h"
#include "core/motion/internal/joint_path_timing.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/rounded_joint_path.h"
#include "core/motion/internal/run_reports.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// A DISTANCE rounding shrinks by this factor until its TCP stays inside
// the sphere, at most kShrinks times (0.8^60 ~ 1.5e-6 of the largest).
constexpr double kShrink = 0.8;
constexpr int kShrinks = 60;
// Points of a rounding whose TCP is checked against its sphere.
constexpr int kSpherePoints = 16;

bool PlainMoveJ(const MotionSegment& s) {
  return s.kind == MotionKind::kMoveJ && !s.avoid_collisions && s.sync == JointSync::kStraight;
}

// One corner's rounding from its zone (PlanMoveJRun); false when a DISTANCE
// sphere holds none.
struct Rounding {
  double reach = 0.0;
  bool reduced = false;  ///< DISTANCE: all of the rounding stays closer than asked
  double radius = 0.0;   ///< DISTANCE: the sphere (reduced: how far it leaves)
};
bool RoundingFor(const ZoneSpec& zone, const std::vector<Eigen::VectorXd>& w, std::size_t k,
                 const std::function<Eigen::Vector3d(const Eigen::VectorXd&)>& tcp_of,
                 Rounding& out) {
  const Eigen::VectorXd& c = w[k + 1];
  const Eigen::VectorXd u_in = (c - w[k]).normalized(), u_out = (w[k + 2] - c).normalized();
  const double cap = kMaxRoundingShare * std::min((c - w[k]).norm(), (w[k + 2] - c).norm());
  switch (zone.kind) {
    case ZoneKind::kCnt:
      out.reach = std::clamp(zone.percent, 0.0, 100.0) / 100.0 * cap;
      return true;
    case ZoneKind::kContinuous:
      out.reach = cap;
      return true;
    default:
      break;
  }
  const Eigen::Vector3d corner = tcp_of(c);
  auto farthest = [&](double reach) {
    double d = 0.0;
    for (int i = 0; i <= kSpherePoints; ++i) {
      const double u = static_cast<double>(i) / kSpherePoints;
      d = std::max(d, (tcp_of(RoundingAt(c, u_in, u_out, reach, u)) - corner).norm());
    }
    return d;
  };
  double reach = cap;
  double far = farthest(reach);
  for (int i = 0; i < kShrinks && far > zone.distance; ++i) {
    reach *= kShrink;
    far = farthest(reach);
  }
  if (far > zone.distance) return false;
  out.reach = reach;
  out.radius = zone.distance;
  if (reach == cap) {
    const double leaves = std::max((tcp_of(c - cap * u_in) - corner).norm(),
                                   (tcp_of(c + cap * u_out) - corner).norm());
    if (leaves < zone.distance) out.reduced = true, out.radius = leaves;
  }
  return true;
}

}  // namespace

std::size_t MoveJRunEnd(const PathRequest& request, std::size_t first) {
  return RunEnd(request, first, PlainMoveJ, [](const MotionSegment& a, const MotionSegment& b) {
    return a.speed.joint_fraction == b.speed.joint_fraction;
  });
}

absl::StatusOr<bool> PlanMoveJRun(const PathRequest& request, std::size_t first, std::size_t last,
                                  const std::vector<Eigen::VectorXd>& waypoints,
                                  SegmentContext& context, std::vector<SegmentReport>& reports,
                                  Eigen::VectorXd& end_joints) {
  const std::vector<MotionSegment>& segments = request.segments;
  const MotionSegment& lead = segments[first];
  const std::size_t m = last - first + 1;
  if (waypoints.size() != m + 1 || m < 2) return false;
  std::vector<double> length;
  double total = 0.0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    length.push_back((waypoints[i] - waypoints[i - 1]).norm());
    if (!(length.back() > 1e-9)) return false;  // no direction to round from
    total += length.back();
  }
  const Eigen::Isometry3d tool = lead.tool.ToIsometry();
  auto tcp_of = [&](const Eigen::VectorXd& q) -> Eigen::Vector3d {
    return (ForwardKinematics(context.model, context.data.kinematics, q) * tool).translation();
  };
  std::vector<Rounding> roundings(m - 1);
  std::vector<double> reach;
  for (std::size_t k = 0; k + 1 < m; ++k) {
    if (!RoundingFor(segments[first + k].zone, waypoints, k, tcp_of, roundings[k])) return false;
    reach.push_back(roundings[k].reach);
  }
  const RoundedJointPath path = RoundCorners(waypoints, reach);

  SegmentReport whole;
  whole.segment_id = lead.id.empty() ? absl::StrCat("#", first) : lead.id;
  whole.segment_index = static_cast<int>(first);
  FastestSampling fastest;
  if (absl::Status s =
          SampleJointPathTiming(path.curve, waypoints, context, lead.speed, whole, fastest);
      !s.ok()) {
    return s;
  }
  if (fastest.stall >= 0 || !fastest.within) return false;

  const CurveSamples& sampled = fastest.sampled;
  const int dof = context.model.dof();
  const long n = static_cast<long>(sampled.times.size());
  const std::size_t size_before = context.out.size();
  const long first_local = context.Stores(0) ? 0 : 1;
  AppendSegmentSamples(context, whole, sampled.times, sampled.q, sampled.qd, sampled.qdd,
                       SampleTcps(context, sampled, tool), end_joints);
  if (!whole.ok || !context.completed) {
    ReplaceTrajectoryTail(context.out, size_before, Trajectory{});
    context.completed = false;
    end_joints = context.start;
    return false;
  }
  auto global = [&](long k) { return whole.first_index - first_local + k; };
  for (long k = 1; k < n; k += kSingularityCheckInterval) {
    const Eigen::VectorXd qk = Eigen::Map<const Eigen::VectorXd>(sampled.q.data() + k * dof, dof);
    if (WarnIfNearSingular(context.model, context.data.kinematics, qk, tool, global(k),
                           context.start_time + sampled.times[k], whole)) {
      break;
    }
  }

  // Each segment's samples end where its rounding does.
  const double dt = context.sample_time;
  std::vector<double> rounding_ends;
  for (std::size_t k = 0; k + 1 < m; ++k) {
    rounding_ends.push_back(path.corner_s[k] + path.reach[k] / total);
  }
  const RunSplit split(sampled.sigma, rounding_ends, whole, first_local);
  const std::vector<double> stop_cost =
      StopCosts(fastest.timings.problem, fastest.timings.solution.x, path.corner_s);
  for (std::size_t k = 0; k < m; ++k) {
    const MotionSegment& segment = segments[first + k];
    SegmentReport r = split.Report(context, request, first, k);
    r.path_length = length[k];
    if (k + 1 < m) {
      const long start = split.Global(split.FirstAt(path.corner_s[k] - path.reach[k] / total));
      const long end = split.Global(split.End(k));
      const Eigen::Vector3d corner = tcp_of(waypoints[k + 1]);
      MeasureBlend(context.out, start, end, corner, dt, r.blend);
      r.blend.leave_distance = (context.out.tcp[start].position - corner).norm();
      r.blend.rejoin_distance = (context.out.tcp[end].position - corner).norm();
      r.blend.zone_radius = segment.zone.kind == ZoneKind::kDistance
                                ? roundings[k].radius
                                : std::max(r.blend.leave_distance, r.blend.rejoin_distance);
      r.blend.time_saved = stop_cost[k];
      if (roundings[k].reduced) {
        AddSegmentDiagnostic(r, Severity::kWarning, DiagnosticCode::kZoneReduced,
                             absl::StrCat("DISTANCE ", segment.zone.distance, " m reduced to ",
                                          roundings[k].radius, " m: a rounding takes at most ",
                                          kMaxRoundingShare, " of either motion's joint path"),
                             r.blend.start_index, r.blend.start_time);
        r.diagnostics.back().value = roundings[k].radius;
        r.diagnostics.back().limit = segment.zone.distance;
      }
    }
    reports.push_back(std::move(r));
  }
  return true;
}

}  // namespace motion
