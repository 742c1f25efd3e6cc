#include "core/cell/start_time_search.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/cell/cell_validation.h"
#include "core/cell/internal/cell_input_check.h"
#include "core/cell/internal/cell_sweep.h"
#include "core/cell/internal/robot_alone_check.h"

namespace motion {
namespace {

// Whether robot k, starting at starts[k], meets none of robots 0..k-1.
// Set `stopped` when cancelled.
bool ClearOfEarlier(const std::vector<const CellRobotProgram*>& programs,
                    const std::vector<double>& starts, std::size_t k, const CellOptions& options,
                    const std::function<bool()>& cancelled, bool& stopped) {
  std::vector<const CellRobotProgram*> robots(programs.begin(), programs.begin() + k + 1);
  std::vector<double> s(starts.begin(), starts.begin() + k + 1);
  CellSweep sweep(robots, s, options);
  if (!sweep.SweepRobots(nullptr, cancelled)) {
    stopped = true;
    return false;
  }
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t j = 0; j < k; ++j) pairs.emplace_back(static_cast<int>(j), static_cast<int>(k));
  if (sweep.CheckPairs(pairs, true, cancelled)) return true;
  stopped = sweep.hits().empty();
  return false;
}

}  // namespace

absl::StatusOr<StartTimeSuggestion> SuggestStartTimes(const std::vector<CellRobotProgram>& robots,
                                                      const CollisionScene& scene,
                                                      const CellOptions& given,
                                                      const std::function<bool()>& cancelled) {
  // Only verdicts are needed: the broad phase may skip what it can.
  CellOptions options = given;
  options.record_clearance = false;
  if (absl::Status s = CheckCellInput(robots, options); !s.ok()) return s;
  double horizon = 0.0;
  for (const CellRobotProgram& r : robots) horizon = std::max(horizon, r.start_time);
  for (const CellRobotProgram& r : robots) horizon += r.duration();
  if (horizon / options.sample_time > static_cast<double>(options.max_start_candidates)) {
    return absl::InvalidArgumentError(absl::StrCat("robots: the start time search horizon (",
                                                   horizon, " s) holds more than ",
                                                   options.max_start_candidates, " sample times"));
  }
  const absl::Status cancel = absl::CancelledError("start time search cancelled");
  StartTimeSuggestion out;
  // Start times only shift a robot's contacts with the scene and itself.
  for (const CellRobotProgram& r : robots) {
    absl::StatusOr<std::vector<CellContact>> alone =
        RobotAloneContacts(r, scene, options, horizon, cancelled);
    if (!alone.ok()) return alone.status();
    if (!alone->empty()) {
      const CellContact& c = alone->front();
      out.reason =
          absl::StrCat("robot ", r.name, " touches ", c.robot_b.empty() ? "the scene" : "itself",
                       " (", c.link_a, " - ", c.other, "): no start time helps");
      return out;
    }
  }
  std::vector<const CellRobotProgram*> programs;
  std::vector<double> starts;
  for (const CellRobotProgram& r : robots) {
    programs.push_back(&r);
    starts.push_back(r.start_time);
  }
  for (std::size_t k = 1; k < robots.size(); ++k) {
    const double t0 = std::max(robots[k].start_time, starts[k - 1]);
    bool found = false;
    for (long m = 0;; ++m) {
      const double t = t0 + static_cast<double>(m) * options.sample_time;
      if (t > horizon + 1e-9) break;
      starts[k] = t;
      bool stopped = false;
      if (ClearOfEarlier(programs, starts, k, options, cancelled, stopped)) {
        found = true;
        break;
      }
      if (stopped) return cancel;
    }
    if (!found) {
      out.reason = absl::StrCat("robot ", robots[k].name,
                                " meets an earlier robot at every start up to the horizon of ",
                                horizon, " s");
      return out;
    }
  }
  // Validated as a whole, with the scene, before it is offered.
  std::vector<CellRobotProgram> shifted = robots;
  for (std::size_t k = 0; k < shifted.size(); ++k) shifted[k].start_time = starts[k];
  absl::StatusOr<CellVerdict> check = ValidateCell(shifted, scene, options, cancelled);
  if (!check.ok()) return check.status();
  if (!check->collision_free) {
    out.reason = "the suggested start times did not validate";
    return out;
  }
  out.found = true;
  out.start_times = std::move(starts);
  return out;
}

}  // namespace motion
