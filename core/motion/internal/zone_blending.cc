#include "core/motion/internal/zone_blending.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

// Samples of the unchanged trajectory on each side of the overlap that the
// blend's audit covers: a third difference spans four samples, so three on
// each side catch every difference that touches a changed sample.
constexpr long kAuditMargin = 3;
// Overlaps tried per corner before single steps (see BlendCorner).
constexpr long kCandidateSteps = 64;

// The trajectory around one corner, as indices of the trajectory before
// blending: `before` spans [begin, corner], `after` [corner, end].
struct Corner {
  long begin = 0;
  long corner = 0;
  long end = 0;
};

// Sum of the TCP's steps over samples [from, to].
double TcpPathLength(const Trajectory& t, long from, long to) {
  double length = 0.0;
  for (long k = from + 1; k <= to; ++k) {
    length += (t.tcp[k].position - t.tcp[k - 1].position).norm();
  }
  return length;
}

// How many samples next to the corner (going back with step -1, forward
// with +1) have their TCP within `radius` of the corner's, at most `limit`.
long SamplesInsideSphere(const Trajectory& t, long corner, int step, double radius, long limit) {
  const Eigen::Vector3d& c = t.tcp[corner].position;
  long n = 0;
  while (n < limit && (t.tcp[corner + step * (n + 1)].position - c).norm() <= radius) ++n;
  return n;
}

// Joint value of the blended trajectory at new index i (overlap n): the
// trajectory unchanged before the overlap, the sum of both motions'
// displacements inside it, `after` moved n samples earlier behind it.
class BlendedPositions {
 public:
  BlendedPositions(const Trajectory& t, long corner, long n) : t_(t), corner_(corner), n_(n) {}
  double At(long i, int j) const {
    const double sum = Rate(t_.positions, i, j);
    return InOverlap(i) ? sum - t_.positions[corner_ * t_.dof + j] : sum;
  }
  // A stated rate (velocities, accelerations): both motions are at rest
  // at the corner, so inside the overlap theirs simply add.
  double Rate(const std::vector<double>& field, long i, int j) const {
    const int dof = t_.dof;
    if (i < corner_ - n_) return field[i * dof + j];
    if (i > corner_) return field[(i + n_) * dof + j];
    return field[i * dof + j] + field[(i + n_) * dof + j];
  }
  bool InOverlap(long i) const { return i >= corner_ - n_ && i <= corner_; }
  Eigen::VectorXd Row(long i) const {
    Eigen::VectorXd q(t_.dof);
    for (int j = 0; j < t_.dof; ++j) q[j] = At(i, j);
    return q;
  }

 private:
  const Trajectory& t_;
  long corner_, n_;
};

// Why an overlap was refused, for the diagnostic.
struct Refusal {
  std::string reason;
};

// The blended positions (and the rates they state) of overlap n over the
// overlap and kAuditMargin samples around it (what the audits read), from
// sample `lo`.
struct BlendWindow {
  std::vector<double> q, qd, qdd;
  long lo = 0;
};

// Audits overlap n: joint positions and divided-difference rates inside the
// limits over the overlap and kAuditMargin samples around it.
bool WithinJointLimits(const ChainModel& model, const std::vector<JointLimits>& limits,
                       ProfileKind profile, double dt, const Trajectory& t, const Corner& c, long n,
                       BlendWindow& window, RateAudit& audit, Refusal& refusal) {
  const BlendedPositions blended(t, c.corner, n);
  const long new_last = static_cast<long>(t.size()) - 1 - n;
  const long lo = std::max(0L, c.corner - n - kAuditMargin);
  const long hi = std::min(new_last, c.corner + kAuditMargin);
  const int dof = t.dof;
  window.lo = lo;
  window.q.resize((hi - lo + 1) * dof);
  window.qd.resize(window.q.size());
  window.qdd.resize(window.q.size());
  for (long i = lo; i <= hi; ++i) {
    for (int j = 0; j < dof; ++j) {
      const double q = blended.At(i, j);
      window.q[(i - lo) * dof + j] = q;
      window.qd[(i - lo) * dof + j] = blended.Rate(t.velocities, i, j);
      window.qdd[(i - lo) * dof + j] = blended.Rate(t.accelerations, i, j);
      if (i >= c.corner - n && i <= c.corner &&
          (q < model.dof_limits[j].lower || q > model.dof_limits[j].upper)) {
        refusal.reason = absl::StrCat(model.dof_names[j], " would leave its position limits");
        return false;
      }
    }
  }
  audit = AuditRates(window.q, dof, dt, limits, AuditBoundary::kInteriorOnly);
  // What the blended samples state (the sums) is held to the limits too.
  IncludeStatedRates(window.qd, window.qdd, dof, limits, audit);
  static constexpr const char* kWhat[3] = {"velocity", "acceleration", "jerk"};
  for (int kind = 0; kind < 3; ++kind) {
    if (kind == RateAudit::kJerk && profile != ProfileKind::kJerkLimited) continue;
    if (audit.ratio[kind] > 1 + kAuditSlack) {
      refusal.reason = absl::StrCat(model.dof_names[audit.joint[kind]], " ", kWhat[kind],
                                    " would reach ", audit.ratio[kind], " x its limit");
      return false;
    }
  }
  return true;
}

bool SamePayload(const Payload& a, const Payload& b) {
  return a.mass == b.mass && a.center_of_mass == b.center_of_mass && a.inertia == b.inertia;
}

// Every joint's torque over the overlap's samples (inverse dynamics of the
// window's positions, with what the robot carries on either side of the
// corner) within its max_torque. The costliest check of an overlap (two
// inverse dynamics per sample), so it runs last.
bool WithinTorque(const ChainModel& model, const std::vector<JointLimits>& limits, double dt,
                  const Corner& c, long n, const BlendDynamics* dynamics, const BlendWindow& window,
                  double& torque_ratio, Refusal& refusal) {
  torque_ratio = 0.0;
  if (dynamics == nullptr || dynamics->data == nullptr) return true;
  // The changed samples, with the window's unchanged ones around them for
  // the differences (the window's ends are not at rest: not evaluated).
  const std::int64_t first = c.corner - n - window.lo, count = n + 1;
  for (const Payload* payload : {&dynamics->before, &dynamics->after}) {
    if (payload == &dynamics->after && SamePayload(dynamics->before, dynamics->after)) break;
    const TorqueRatio worst = SampledTorqueRatio(model, *dynamics->data, limits, window.q, dt,
                                                 dynamics->gravity, *payload, first, count);
    torque_ratio = std::max(torque_ratio, worst.ratio);
    if (worst.ratio > 1 + kAuditSlack) {
      refusal.reason = absl::StrCat(model.dof_names[worst.dof], " torque would reach ", worst.ratio,
                                    " x its max_torque");
      return false;
    }
  }
  return true;
}

// TCP of the blended samples [corner - n, corner] and what they say.
struct BlendedTcp {
  std::vector<Pose> poses;
  double max_corner_distance = 0.0;
  double min_corner_distance = std::numeric_limits<double>::infinity();
  double min_speed = std::numeric_limits<double>::infinity();
  double max_speed = 0.0;
};

// Stops at the first sample faster than `max_speed` or farther than
// `max_distance` from the corner (the overlap is refused then; most refused
// overlaps show it early, and each sample costs a forward kinematics).
BlendedTcp BlendedTcpPoses(const ChainModel& model, ChainData& data, const Pose& tool, double dt,
                           const Trajectory& t, const Corner& c, long n, double max_speed,
                           double max_distance) {
  const BlendedPositions blended(t, c.corner, n);
  const Eigen::Isometry3d tool_pose = tool.ToIsometry();
  const Eigen::Vector3d& corner = t.tcp[c.corner].position;
  BlendedTcp out;
  // Speed by differences, from the unchanged sample before the overlap.
  Eigen::Vector3d previous = t.tcp[std::max(0L, c.corner - n - 1)].position;
  for (long i = c.corner - n; i <= c.corner; ++i) {
    out.poses.push_back(
        Pose::FromIsometry(ForwardKinematics(model, data, blended.Row(i)) * tool_pose));
    const Eigen::Vector3d& p = out.poses.back().position;
    const double d = (p - corner).norm(), speed = (p - previous).norm() / dt;
    previous = p;
    out.max_corner_distance = std::max(out.max_corner_distance, d);
    out.min_corner_distance = std::min(out.min_corner_distance, d);
    out.min_speed = std::min(out.min_speed, speed);
    out.max_speed = std::max(out.max_speed, speed);
    if (speed > max_speed || d > max_distance) break;
  }
  return out;
}

// Writes overlap n into the trajectory: the blended samples, `after`'s
// first n samples gone, its later samples n sample times earlier. In place:
// sample i of the overlap reads samples i + n >= corner, which are written
// (only the corner itself) after they are read.
void ApplyOverlap(const Corner& c, long n, const BlendedTcp& tcp, double dt, Trajectory& t) {
  const int dof = t.dof;
  const std::vector<double> corner(t.positions.begin() + c.corner * dof,
                                   t.positions.begin() + (c.corner + 1) * dof);
  for (long i = c.corner - n; i <= c.corner; ++i) {
    for (int j = 0; j < dof; ++j) {
      const long a = i * dof + j, b = (i + n) * dof + j;
      t.positions[a] += t.positions[b] - corner[j];
      // Both motions are at rest at the corner: their rates simply add.
      t.velocities[a] += t.velocities[b];
      t.accelerations[a] += t.accelerations[b];
    }
    t.tcp[i] = tcp.poses[i - (c.corner - n)];
  }
  const long first_gone = c.corner + 1, last_gone = c.corner + n;
  t.time.erase(t.time.begin() + first_gone, t.time.begin() + last_gone + 1);
  for (std::size_t i = first_gone; i < t.time.size(); ++i) {
    t.time[i] = std::round((t.time[i] - n * dt) / dt) * dt;
  }
  auto erase_rows = [&](std::vector<double>& v) {
    v.erase(v.begin() + first_gone * dof, v.begin() + (last_gone + 1) * dof);
  };
  erase_rows(t.positions);
  erase_rows(t.velocities);
  erase_rows(t.accelerations);
  t.tcp.erase(t.tcp.begin() + first_gone, t.tcp.begin() + last_gone + 1);
}

// `after` starts n samples earlier: its count, duration and the samples
// its diagnostics point at move back with it.
void ShortenAfter(long corner, long n, double dt, SegmentReport& after) {
  after.point_count -= n;
  after.duration -= n * dt;
  for (Diagnostic& d : after.diagnostics) {
    if (d.point_index > corner) {
      d.point_index -= n;
      d.time -= n * dt;
    }
  }
}

std::string ZoneName(const ZoneSpec& zone) {
  switch (zone.kind) {
    case ZoneKind::kDistance:
      return absl::StrCat("zone DISTANCE ", zone.distance, " m");
    case ZoneKind::kCnt:
      return absl::StrCat("zone CNT ", zone.percent);
    case ZoneKind::kContinuous:
      return "zone CONTINUOUS";
    case ZoneKind::kFine:
      break;
  }
  return "zone FINE";
}

}  // namespace

bool AsksForBlend(const ZoneSpec& zone) {
  switch (zone.kind) {
    case ZoneKind::kFine:
      return false;
    case ZoneKind::kDistance:
      return zone.distance > 0;
    case ZoneKind::kCnt:
      return zone.percent > 0;
    case ZoneKind::kContinuous:
      return true;
  }
  return false;
}

void BlendCorner(const ChainModel& model, ChainData& data, const std::vector<JointLimits>& limits,
                 ProfileKind profile, double sample_time, const ZoneSpec& zone, const Pose& tool,
                 Trajectory& trajectory, SegmentReport& before, SegmentReport& after,
                 const BlendDynamics* dynamics, double max_tcp_speed) {
  const double dt = sample_time;
  Corner c;
  c.corner = static_cast<long>(after.first_index) - 1;
  c.begin = std::max(0L, static_cast<long>(before.first_index) - 1);
  // `after`'s own samples: the trajectory's last, or (the first segment of
  // a blended run) the end of its own part.
  c.end = static_cast<long>(after.first_index + after.point_count) - 1;
  // Never past the middle of either motion (in samples).
  const long half = std::min((c.corner - c.begin) / 2, (c.end - c.corner) / 2);

  long wanted = 0;
  double radius = 0.0;
  std::string reduced_because;
  switch (zone.kind) {
    case ZoneKind::kDistance: {
      const double half_path = 0.5 * std::min(TcpPathLength(trajectory, c.begin, c.corner),
                                              TcpPathLength(trajectory, c.corner, c.end));
      radius = zone.distance;
      if (radius > half_path) {
        radius = half_path;
        reduced_because = "half of the shorter neighbouring motion's TCP path";
      }
      wanted = std::min(SamplesInsideSphere(trajectory, c.corner, -1, radius, half),
                        SamplesInsideSphere(trajectory, c.corner, +1, radius, half));
      break;
    }
    case ZoneKind::kCnt:
      wanted = static_cast<long>(std::floor(zone.percent / 100.0 * half + 1e-9));
      break;
    case ZoneKind::kContinuous:
      wanted = half;
      break;
    case ZoneKind::kFine:
      return;
  }

  // The largest overlap up to `wanted` that keeps every limit (and, for
  // DISTANCE, the TCP inside the sphere). `refusal` is why the last overlap
  // tried was refused: the one just above what is kept, or the smallest of
  // all when none is, so the diagnostic names what bound there (a large
  // overlap may fail for the TCP's speed and a small one for a joint's
  // jerk).
  Refusal refusal;
  RateAudit audit;
  double torque_ratio = 0.0;
  // Every step-th overlap from the zone's down, then single samples over
  // the last two steps: about kCandidateSteps + 2 step tries, so a corner
  // costs O(kCandidateSteps x wanted) samples however long the motions are.
  const long step = std::max(1L, wanted / kCandidateSteps);
  long n = wanted;
  BlendedTcp tcp;
  BlendWindow window;
  for (; n > 0; n -= n > 2 * step ? step : 1) {
    // Cheapest first: rates, then the TCP (forward kinematics), then torque.
    Refusal why;
    if (!WithinJointLimits(model, limits, profile, dt, trajectory, c, n, window, audit, why)) {
      refusal = why;
      continue;
    }
    const double max_distance = zone.kind == ZoneKind::kDistance
                                    ? radius * (1 + 1e-9) + 1e-12
                                    : std::numeric_limits<double>::infinity();
    tcp = BlendedTcpPoses(model, data, tool, dt, trajectory, c, n,
                          max_tcp_speed * (1 + kAuditSlack), max_distance);
    if (tcp.max_speed > max_tcp_speed * (1 + kAuditSlack)) {
      refusal.reason = absl::StrCat("the blended TCP would move at ", tcp.max_speed,
                                    " m/s, faster than the programmed ", max_tcp_speed, " m/s");
      continue;
    }
    if (tcp.max_corner_distance > max_distance) {
      refusal.reason = absl::StrCat("the blended TCP would leave the zone sphere (",
                                    tcp.max_corner_distance, " m from the corner)");
      continue;
    }
    if (!WithinTorque(model, limits, dt, c, n, dynamics, window, torque_ratio, why)) {
      refusal = why;
      continue;
    }
    break;
  }
  if (n == 0) {
    std::string why = wanted == 0 ? std::string("the neighbouring motions are too short to blend")
                                  : refusal.reason;
    AddSegmentDiagnostic(before, Severity::kWarning, DiagnosticCode::kZoneApproximated,
                         absl::StrCat(ZoneName(zone), " executed as a fine stop: ", why));
    return;
  }
  if (n < wanted && reduced_because.empty()) {
    reduced_because =
        absl::StrCat("the limits allow no more (", refusal.reason, " with a larger one)");
  }

  BlendReport& blend = before.blend;
  const Eigen::Vector3d corner = trajectory.tcp[c.corner].position;
  blend.leave_distance = (trajectory.tcp[c.corner - n].position - corner).norm();
  blend.rejoin_distance = (trajectory.tcp[c.corner + n].position - corner).norm();
  ApplyOverlap(c, n, tcp, dt, trajectory);
  blend.blended = true;
  blend.start_index = c.corner - n;
  blend.end_index = c.corner;
  blend.start_time = trajectory.time[blend.start_index];
  blend.end_time = trajectory.time[blend.end_index];
  blend.zone_radius = zone.kind == ZoneKind::kDistance && n == wanted
                          ? radius
                          : std::max(blend.leave_distance, blend.rejoin_distance);
  blend.corner_distance = tcp.min_corner_distance;
  blend.time_saved = n * dt;
  blend.min_tcp_speed = tcp.min_speed;
  WidenRateRatios(audit, before);
  before.max_joint_torque_ratio = std::max(before.max_joint_torque_ratio, torque_ratio);
  ShortenAfter(c.corner, n, dt, after);

  if (!reduced_because.empty()) {
    const bool distance = zone.kind == ZoneKind::kDistance;
    // The sphere actually used: the reduced radius, or (limits) the
    // farther of where the blend leaves and rejoins.
    const double used = !distance     ? (half > 0 ? 100.0 * n / half : 0.0)
                        : n == wanted ? radius
                                      : std::max(blend.leave_distance, blend.rejoin_distance);
    AddSegmentDiagnostic(before, Severity::kWarning, DiagnosticCode::kZoneReduced,
                         absl::StrCat(ZoneName(zone), " reduced to ", distance ? "" : "CNT ", used,
                                      distance ? " m" : "", ": ", reduced_because),
                         blend.start_index, blend.start_time);
    before.diagnostics.back().value = used;
    before.diagnostics.back().limit = distance ? zone.distance : zone.percent;
  }
}

}  // namespace motion
