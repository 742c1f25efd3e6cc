#include "core/motion/internal/move_c.h"

#include <string>
#include <vector>

#include "core/ik/ik_solver.h"
#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/segment_paths.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {

absl::Status PlanMoveC(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints) {
  end_joints = context.start;
  absl::StatusOr<SegmentPath> arc = ArcPath(segment, context.start_tcp);
  if (!arc.ok()) {
    AddSegmentDiagnostic(report, Severity::kError, DiagnosticCode::kArcDegenerate,
                         std::string(arc.status().message()));
    return absl::OkStatus();
  }
  report.has_arc = true;
  report.arc = arc->arc;
  // The via is a point of the path: reachable, or the segment says so
  // before any sample is made (with the IK's reason).
  {
    const std::vector<double> seed(context.start.data(),
                                   context.start.data() + context.start.size());
    absl::StatusOr<IkResult> ik =
        SolveIk(context.model, context.data, arc->via, segment.tool, seed, IkOptions());
    if (!ik.ok()) return ik.status();
    if (!ik->ok) {
      ReportFailedIk(ik->diagnostics, "via", report);
      return absl::OkStatus();
    }
  }
  report.path_length = arc->extent.length;
  return TrackCartesianPath(segment, arc->path, arc->extent, context, report, end_joints);
}

}  // namespace motion
