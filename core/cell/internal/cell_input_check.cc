#include "core/cell/internal/cell_input_check.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace motion {

absl::Status CheckCellInput(const std::vector<CellRobotProgram>& robots,
                            const CellOptions& options) {
  if (!std::isfinite(options.sample_time) || !(options.sample_time > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("sample_time: must be finite and > 0 s, got ", options.sample_time));
  }
  if (!std::isfinite(options.safety_margin) || options.safety_margin < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("safety_margin: must be finite and >= 0 m, got ", options.safety_margin));
  }
  std::size_t instants = 1;
  for (std::size_t i = 0; i < robots.size(); ++i) {
    const CellRobotProgram& r = robots[i];
    const std::string field = absl::StrCat("robots[", i, "]");
    if (!r.chain || !r.collision) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": no robot model"));
    }
    if (!std::isfinite(r.start_time) || r.start_time < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".start_time: must be finite and >= 0 s, got ", r.start_time));
    }
    if (r.times.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".program: has no samples"));
    }
    const std::size_t dof = static_cast<std::size_t>(r.chain->dof());
    if (r.positions.size() != r.times.size() * dof) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".program: ", r.positions.size(),
                                                     " positions for ", r.times.size(),
                                                     " samples of ", dof, " joints"));
    }
    if (r.times.front() != 0.0) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".program: must start at time 0"));
    }
    for (std::size_t k = 1; k < r.times.size(); ++k) {
      if (!std::isfinite(r.times[k]) || !(r.times[k] > r.times[k - 1])) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".program: times must increase (sample ", k, ")"));
      }
    }
    for (double q : r.positions) {
      if (!std::isfinite(q)) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".program: a position is not finite"));
      }
    }
    instants += r.times.size();
  }
  if (instants > options.max_instants) {
    return absl::InvalidArgumentError(absl::StrCat("robots: the cell has ", instants,
                                                   " instants over all programs, more than ",
                                                   options.max_instants));
  }
  return absl::OkStatus();
}

}  // namespace motion
