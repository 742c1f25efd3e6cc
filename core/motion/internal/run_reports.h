#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief The last segment of a run that starts at `first`: while a
/// segment's zone asks for a blend into the next, the next is a `member`,
/// carries no new payload, has the same tool and `alike` says it moves as
/// this one does (`first` itself when it is no member or nothing follows).
std::size_t RunEnd(const PathRequest& request, std::size_t first,
                   const std::function<bool(const MotionSegment&)>& member,
                   const std::function<bool(const MotionSegment&, const MotionSegment&)>& alike);

/// \brief How the samples of a run (segments first..first + m - 1 planned
/// as one motion and appended as one, `whole` its report) are shared out:
/// each segment's run to the end of the blend of its zone.
class RunSplit {
 public:
  /// \brief `sigma`: the run's path parameter at each of its samples
  /// (local, 0 its start); `blend_end[k]` (m - 1 of them): where segment
  /// k's blend ends; `first_local`: 0 when the run's first sample was
  /// stored, 1 when it is the previous segment's last.
  RunSplit(const std::vector<double>& sigma, const std::vector<double>& blend_end,
           const SegmentReport& whole, long first_local);

  /// \brief A local sample's index in the trajectory.
  long Global(long local) const { return whole_.first_index - first_local_ + local; }
  /// \brief The first local sample at or past `s`.
  long FirstAt(double s) const;
  /// \brief Segment k's last sample (local).
  long End(std::size_t k) const { return ends_[k]; }

  /// \brief Segment first + k's report: id, index, start, duration,
  /// indices, the run's torque ratio, its own rate ratios (divided
  /// differences of its samples with a third difference's reach of the
  /// run's around them, and the rates stated) and the run's diagnostics
  /// that name one of its samples (those naming none go to the first).
  SegmentReport Report(const SegmentContext& context, const PathRequest& request, std::size_t first,
                       std::size_t k) const;

 private:
  const std::vector<double>& sigma_;
  const SegmentReport& whole_;
  long first_local_;
  std::vector<long> ends_;
};

/// \brief What samples [start, end] (global) of `t` say of a blend around
/// the TCP point `corner`: its indices and times, the TCP's closest approach
/// to the corner and its slowest speed (central differences) there.
void MeasureBlend(const Trajectory& t, long start, long end, const Eigen::Vector3d& corner,
                  double dt, BlendReport& blend);

}  // namespace motion
