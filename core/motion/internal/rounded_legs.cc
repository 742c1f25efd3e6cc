#include "core/motion/internal/rounded_legs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/motion/internal/checked_blend.h"
#include "core/motion/internal/curve_sampling.h"
#include "core/motion/internal/joint_path_timing.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/rounded_joint_path.h"
#include "core/motion/internal/segment_sampling.h"

namespace motion {
namespace {

// A rounding that touches something is halved at most this many times;
// then its corner is a stop.
constexpr int kHalvings = 4;

// What one section's planning found.
struct Section {
  RoundedJointPath path;  ///< the section's curve, its corners and their reach as used
  bool timed = false;     ///< every sample within its limits
  bool collided = false;  ///< the samples or the motion between them touch something
  double contact_s = 0.0;
};

// Times, samples and checks the section through `points` with corner
// roundings `reach`; appends it to context.out (report in `part`) when it
// is within its limits and clear.
absl::Status PlanSection(const MotionSegment& segment, SegmentContext& context,
                         const std::vector<Eigen::VectorXd>& points,
                         const std::vector<double>& reach, SegmentReport& part,
                         Eigen::VectorXd& end_joints, Section& section) {
  section.path = RoundCorners(points, reach);
  FastestSampling fastest;
  if (absl::Status s =
          SampleJointPathTiming(section.path.curve, points, context, segment.speed, part, fastest);
      !s.ok()) {
    return s;
  }
  section.timed = fastest.stall < 0 && fastest.within;
  if (!section.timed) return absl::OkStatus();
  const CurveSamples& sampled = fastest.sampled;
  const std::vector<TrajectoryContact> contacts =
      SampledContacts(context.model, context.data.kinematics, context.collision, context.cancelled,
                      sampled.times, sampled.q);
  if (context.Cancelled()) return absl::CancelledError("planning cancelled by the client");
  if (!contacts.empty()) {
    section.collided = true;
    section.contact_s =
        sampled.sigma[std::min(contacts.front().first_sample, sampled.sigma.size() - 1)];
    return absl::OkStatus();
  }
  AppendSegmentSamples(context, part, sampled.times, sampled.q, sampled.qd, sampled.qdd,
                       SampleTcps(context, sampled, segment.tool.ToIsometry()), end_joints);
  return absl::OkStatus();
}

}  // namespace

void MergeSectionReports(const std::vector<SegmentReport>& parts, SegmentReport& report) {
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const SegmentReport& part = parts[i];
    report.diagnostics.insert(report.diagnostics.end(), part.diagnostics.begin(),
                              part.diagnostics.end());
    report.ok = report.ok && part.ok;
    if (i == 0) {
      report.start_time = part.start_time;
      report.first_index = part.first_index;
    }
    report.duration += part.duration;
    report.point_count += part.point_count;
    report.max_joint_velocity_ratio =
        std::max(report.max_joint_velocity_ratio, part.max_joint_velocity_ratio);
    report.max_joint_acceleration_ratio =
        std::max(report.max_joint_acceleration_ratio, part.max_joint_acceleration_ratio);
    report.max_joint_jerk_ratio = std::max(report.max_joint_jerk_ratio, part.max_joint_jerk_ratio);
    report.max_joint_torque_ratio =
        std::max(report.max_joint_torque_ratio, part.max_joint_torque_ratio);
  }
}

absl::Status PlanRoundedLegs(const MotionSegment& segment, SegmentContext& context,
                             const std::vector<Eigen::VectorXd>& waypoints, SegmentReport& report,
                             Eigen::VectorXd& end_joints, RoundedLegs& outcome) {
  outcome = RoundedLegs{};
  if (waypoints.size() < 3) return absl::OkStatus();
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    // A leg of no length has no direction to round from: the legs' way.
    if (!((waypoints[i] - waypoints[i - 1]).norm() > 1e-9)) return absl::OkStatus();
  }
  const std::size_t corners = waypoints.size() - 2;
  std::vector<double> reach(corners, std::numeric_limits<double>::infinity());
  std::vector<int> halvings(corners, 0);
  std::vector<char> stop(corners, 0);
  const std::size_t kept = context.out.size();
  const Eigen::VectorXd start = context.start;
  const double start_time = context.start_time;
  const bool continuous = context.continuous;
  auto undo = [&]() {
    ReplaceTrajectoryTail(context.out, kept, Trajectory{});
    context.start = start;
    context.start_time = start_time;
    context.continuous = continuous;
    context.completed = false;
  };
  std::vector<SegmentReport> parts;
  std::size_t from = 0;  // waypoint where the section starts
  while (from + 1 < waypoints.size()) {
    std::size_t to = from + 1;  // ... and where it stops
    while (to + 1 < waypoints.size() && !stop[to - 1]) ++to;
    const std::vector<Eigen::VectorXd> points(waypoints.begin() + from, waypoints.begin() + to + 1);
    const std::vector<double> section_reach(reach.begin() + from, reach.begin() + (to - 1));
    SegmentReport part;
    part.segment_id = report.segment_id;
    part.segment_index = report.segment_index;
    context.start = waypoints[from];
    context.completed = false;
    Section section;
    Eigen::VectorXd reached;
    absl::Status status =
        PlanSection(segment, context, points, section_reach, part, reached, section);
    if (!status.ok()) {
      undo();
      return status;
    }
    if (section.timed && !section.collided) {
      if (!context.completed || !part.ok) {
        undo();
        return absl::OkStatus();
      }
      parts.push_back(std::move(part));
      context.start_time += parts.back().duration;
      context.continuous = true;  // the next section starts at this one's last sample
      end_joints = reached;
      from = to;
      continue;
    }
    if (!section.timed || to == from + 1) {  // nothing left to shrink
      undo();
      return absl::OkStatus();
    }
    // The corner of the section nearest to the contact rounds less.
    const RoundedJointPath& path = section.path;
    std::size_t nearest = 0;
    for (std::size_t k = 1; k < path.corner_s.size(); ++k) {
      if (std::abs(path.corner_s[k] - section.contact_s) <
          std::abs(path.corner_s[nearest] - section.contact_s)) {
        nearest = k;
      }
    }
    const std::size_t corner = from + nearest;
    if (++halvings[corner] > kHalvings) {
      stop[corner] = 1;
    } else {
      reach[corner] = 0.5 * path.reach[nearest];
    }
  }
  MergeSectionReports(parts, report);
  context.start = start;
  context.start_time = start_time;
  outcome.planned = true;
  outcome.rounded_corners =
      static_cast<int>(corners) - static_cast<int>(std::count(stop.begin(), stop.end(), 1));
  return absl::OkStatus();
}

}  // namespace motion
