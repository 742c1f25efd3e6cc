#include "core/motion/internal/result_checkpoint.h"

namespace motion {
namespace {

// Rows of the per-sample vectors of `t` from sample `from` on.
template <typename T>
std::vector<T> From(const std::vector<T>& v, std::size_t from, std::size_t width) {
  return std::vector<T>(v.begin() + static_cast<long>(from * width), v.end());
}

template <typename T>
void CutAndAppend(std::vector<T>& v, std::size_t keep, const std::vector<T>& tail) {
  v.resize(keep);
  v.insert(v.end(), tail.begin(), tail.end());
}

}  // namespace

ResultTail CopyTail(const PathResult& result, std::size_t samples, std::size_t segments,
                    std::size_t diagnostics) {
  ResultTail tail;
  tail.samples = samples;
  tail.segments = segments;
  tail.diagnostics = diagnostics;
  const Trajectory& t = result.trajectory;
  const std::size_t dof = static_cast<std::size_t>(t.dof);
  tail.trajectory.dof = t.dof;
  tail.trajectory.time = From(t.time, samples, 1);
  tail.trajectory.positions = From(t.positions, samples, dof);
  tail.trajectory.velocities = From(t.velocities, samples, dof);
  tail.trajectory.accelerations = From(t.accelerations, samples, dof);
  tail.trajectory.tcp = From(t.tcp, samples, 1);
  tail.reports = From(result.segments, segments, 1);
  tail.diagnostic_list = From(result.diagnostics, diagnostics, 1);
  return tail;
}

void PutTail(const ResultTail& tail, PathResult& result) {
  Trajectory& t = result.trajectory;
  const std::size_t dof = static_cast<std::size_t>(t.dof);
  CutAndAppend(t.time, tail.samples, tail.trajectory.time);
  CutAndAppend(t.positions, tail.samples * dof, tail.trajectory.positions);
  CutAndAppend(t.velocities, tail.samples * dof, tail.trajectory.velocities);
  CutAndAppend(t.accelerations, tail.samples * dof, tail.trajectory.accelerations);
  CutAndAppend(t.tcp, tail.samples, tail.trajectory.tcp);
  CutAndAppend(result.segments, tail.segments, tail.reports);
  CutAndAppend(result.diagnostics, tail.diagnostics, tail.diagnostic_list);
}

}  // namespace motion
