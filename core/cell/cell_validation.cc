#include "core/cell/cell_validation.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/cell/internal/cell_input_check.h"
#include "core/cell/internal/cell_sweep.h"
#include "core/cell/internal/contact_intervals.h"
#include "core/cell/internal/robot_alone_check.h"

namespace motion {

absl::StatusOr<CellVerdict> ValidateCell(const std::vector<CellRobotProgram>& robots,
                                         const CollisionScene& scene, const CellOptions& options,
                                         const std::function<bool()>& cancelled) {
  if (absl::Status s = CheckCellInput(robots, options); !s.ok()) return s;
  std::vector<const CellRobotProgram*> programs;
  std::vector<double> starts;
  double cell_end = 0.0;
  for (const CellRobotProgram& r : robots) {
    programs.push_back(&r);
    starts.push_back(r.start_time);
    cell_end = std::max(cell_end, r.start_time + r.duration());
  }
  CellVerdict verdict;
  for (const CellRobotProgram& r : robots) {
    absl::StatusOr<std::vector<CellContact>> alone =
        RobotAloneContacts(r, scene, options, cell_end, cancelled);
    if (!alone.ok()) return alone.status();
    for (CellContact& c : *alone) verdict.contacts.push_back(std::move(c));
  }
  CellSweep sweep(programs, starts, options);
  if (!sweep.SweepRobots(&scene, cancelled)) return absl::CancelledError("cell check cancelled");
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < static_cast<int>(robots.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(robots.size()); ++b) pairs.emplace_back(a, b);
  }
  if (!sweep.CheckPairs(pairs, false, cancelled)) {
    return absl::CancelledError("cell check cancelled");
  }
  std::vector<CellContact> pair_contacts =
      PairContacts(sweep.hits(), programs, [&](int robot, int link) -> const std::string& {
        return sweep.placer(robot).link_name(link);
      });
  for (CellContact& c : pair_contacts) verdict.contacts.push_back(std::move(c));
  verdict.collision_free = verdict.contacts.empty();
  verdict.min_clearance = std::min(sweep.min_robot_distance(), sweep.min_scene_distance());
  if (options.record_clearance) {
    verdict.clearance_times = sweep.instants();
    verdict.clearance = sweep.instant_clearance();
  }
  return verdict;
}

}  // namespace motion
