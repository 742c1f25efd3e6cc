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

Trajectory TrajectoryFrom(const Trajectory& t, std::size_t from) {
  const std::size_t dof = static_cast<std::size_t>(t.dof);
  Trajectory out;
  out.dof = t.dof;
  out.time = From(t.time, from, 1);
  out.positions = From(t.positions, from, dof);
  out.velocities = From(t.velocities, from, dof);
  out.accelerations = From(t.accelerations, from, dof);
  out.tcp = From(t.tcp, from, 1);
  return out;
}

void ReplaceTrajectoryTail(Trajectory& t, std::size_t keep, const Trajectory& tail) {
  const std::size_t dof = static_cast<std::size_t>(t.dof);
  CutAndAppend(t.time, keep, tail.time);
  CutAndAppend(t.positions, keep * dof, tail.positions);
  CutAndAppend(t.velocities, keep * dof, tail.velocities);
  CutAndAppend(t.accelerations, keep * dof, tail.accelerations);
  CutAndAppend(t.tcp, keep, tail.tcp);
}

ResultTail CopyTail(const PathResult& result, std::size_t samples, std::size_t segments,
                    std::size_t diagnostics) {
  ResultTail tail;
  tail.samples = samples;
  tail.segments = segments;
  tail.diagnostics = diagnostics;
  tail.trajectory = TrajectoryFrom(result.trajectory, samples);
  tail.reports = From(result.segments, segments, 1);
  tail.diagnostic_list = From(result.diagnostics, diagnostics, 1);
  return tail;
}

void PutTail(const ResultTail& tail, PathResult& result) {
  ReplaceTrajectoryTail(result.trajectory, tail.samples, tail.trajectory);
  CutAndAppend(result.segments, tail.segments, tail.reports);
  CutAndAppend(result.diagnostics, tail.diagnostics, tail.diagnostic_list);
}

}  // namespace motion
