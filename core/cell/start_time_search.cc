#include "core/cell/start_time_search.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cell/cell_validation.h"
#include "core/cell/internal/cell_input_check.h"
#include "core/cell/internal/cell_sweep.h"
#include "core/cell/internal/cell_timeline.h"
#include "core/cell/internal/robot_alone_check.h"
#include "core/collision/robot_snapshot.h"

namespace motion {
namespace {

// Instants at which robot k was found touching an earlier robot j. A later
// candidate start usually still touches it at the same cell time (k a
// sample behind on a slow approach) or at the same time of k's program (j
// holding still where k meets it), and one instant proves it: the
// candidate is refused without a sweep.
class Witnesses {
 public:
  explicit Witnesses(const std::vector<const CellRobotProgram*>& programs) {
    for (const CellRobotProgram* r : programs) {
      data_.push_back(std::make_unique<ChainData>(*r->chain));
      placers_.push_back(
          std::make_unique<RobotPlacer>(*r->chain, *data_.back(), *r->collision, r->X_CB));
    }
  }

  /// A contact with robot j at cell time `time`, robot k started at `start`.
  void Add(int j, double time, double start) {
    if (seen_.size() == kKept) seen_.erase(seen_.begin());
    seen_.push_back({j, time, time - start});
  }
  void Clear() { seen_.clear(); }

  // Whether robot k starting at starts[k] touches a kept robot j at its
  // cell time or its time of k's program.
  bool AnyContact(const std::vector<const CellRobotProgram*>& programs,
                  const std::vector<double>& starts, int k, double margin) {
    for (const Seen& s : seen_) {
      for (double t : {s.time, s.local + starts[k]}) {
        if (ContactAt(programs, starts, s.robot, k, margin, t)) return true;
      }
    }
    return false;
  }

 private:
  bool ContactAt(const std::vector<const CellRobotProgram*>& programs,
                 const std::vector<double>& starts, int j, int k, double margin, double t) {
    JointsAt(*programs[j], starts[j], t, qa_);
    JointsAt(*programs[k], starts[k], t, qb_);
    placers_[j]->Place(qa_, sa_);
    placers_[k]->Place(qb_, sb_);
    LinkPairDistances(sa_, sb_, margin, 0.0, distances_, contacts_);
    return !contacts_.empty();
  }

  struct Seen {
    int robot;
    double time, local;
  };

  static constexpr std::size_t kKept = 8;
  std::vector<std::unique_ptr<ChainData>> data_;
  std::vector<std::unique_ptr<RobotPlacer>> placers_;
  std::vector<Seen> seen_;
  Eigen::VectorXd qa_, qb_;
  RobotSnapshot sa_, sb_;
  std::vector<double> distances_;
  std::vector<LinkPairContact> contacts_;
};

// Whether robot k, starting at starts[k], meets none of robots 0..k-1; a
// contact found is kept in `witnesses`. Set `stopped` when cancelled.
bool ClearOfEarlier(const std::vector<const CellRobotProgram*>& programs,
                    const std::vector<double>& starts, std::size_t k, const CellOptions& options,
                    const std::function<bool()>& cancelled, Witnesses& witnesses, bool& stopped) {
  if (witnesses.AnyContact(programs, starts, static_cast<int>(k), options.safety_margin)) {
    return false;
  }
  // Pair by pair, each on the two robots' own instants: a sweep costs what
  // the two robots do, and the first contact ends the candidate.
  for (std::size_t j = 0; j < k; ++j) {
    CellSweep sweep({programs[j], programs[k]}, {starts[j], starts[k]}, options);
    if (!sweep.SweepRobots(nullptr, cancelled)) {
      stopped = true;
      return false;
    }
    if (sweep.CheckPairs({{0, 1}}, true, cancelled)) continue;
    stopped = sweep.hits().empty();
    if (!stopped) witnesses.Add(static_cast<int>(j), sweep.hits().front().time, starts[k]);
    return false;
  }
  return true;
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
  Witnesses witnesses(programs);
  for (std::size_t k = 1; k < robots.size(); ++k) {
    witnesses.Clear();
    const double t0 = std::max(robots[k].start_time, starts[k - 1]);
    bool found = false;
    for (long m = 0;; ++m) {
      const double t = t0 + static_cast<double>(m) * options.sample_time;
      if (t > horizon + 1e-9) break;
      starts[k] = t;
      bool stopped = false;
      if (m % 64 == 0 && cancelled && cancelled()) return cancel;
      if (ClearOfEarlier(programs, starts, k, options, cancelled, witnesses, stopped)) {
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
