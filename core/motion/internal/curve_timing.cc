#include "core/motion/internal/curve_timing.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/dynamics/path_dynamics.h"

namespace motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// The timing is exact at its grid nodes; between them (and in the divided
// differences of the samples, which average over up to four samples) the
// rates can differ by a little. The limits given to the timing keep that
// little inside the real ones.
constexpr double kVelocityMargin = 0.995;
constexpr double kAccelerationMargin = 0.97;
constexpr double kJerkMargin = 0.95;
constexpr double kTorqueMargin = 0.97;
// Bounds on the timing grid, the longest interval between its nodes (in
// samples) and how often it is refined to that.
constexpr int kMaxNodes = 50000;
constexpr double kIntervalPerSample = 0.25;
constexpr int kRefinements = 3;

// Where holding the arm still (gravity, payload: c) takes more than
// kHoldingShare of a joint's limit L, the margin is kept on the headroom
// rather than on the limit, so that the arm can still move there, slowly:
// the bound on that side becomes c + kHeadroomKept (L - c) (equal to
// kTorqueMargin L where c = kHoldingShare L, and above it beyond), by
// shifting c in the constraint, which leaves the far side at most
// (1 - kTorqueMargin) L tighter. Below the share nothing changes.
constexpr double kHoldingShare = 0.95;
constexpr double kHeadroomKept = (kTorqueMargin - kHoldingShare) / (1 - kHoldingShare);
double HoldingShifted(double c, double limit) {
  const double held = std::abs(c);
  const double raise = std::max(0.0, held + kHeadroomKept * (limit - held) - kTorqueMargin * limit);
  return c > 0 ? c - raise : c + raise;
}

// Each joint's torque along `curve` as tau = a sdd + b sd^2 + c at every
// node (PathTorqueCoefficients: inverse dynamics with the segment's payload
// and gravity), within kTorqueMargin of its max_torque (0: unknown, none).
void AddTorqueLimits(const JointCurve& curve, const SegmentContext& context,
                     const std::vector<double>& grid, const std::vector<long>& reuse,
                     const PathTimingProblem* previous, PathTimingProblem& p) {
  const int dof = curve.dof();
  const std::size_t first = p.linear.size();
  std::vector<int> joint_of;
  for (int j = 0; j < dof; ++j) {
    const double limit = context.limits[j].max_torque;
    if (!(limit > 0)) continue;
    PathTimingProblem::Linear c;
    c.lower = -kTorqueMargin * limit;
    c.upper = kTorqueMargin * limit;
    c.a.resize(grid.size());
    c.b.resize(grid.size());
    c.c.resize(grid.size());
    p.linear.push_back(std::move(c));
    joint_of.push_back(j);
  }
  if (joint_of.empty()) return;
  Eigen::VectorXd q, d1, d2, a, b, c;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (reuse[i] >= 0) {
      for (std::size_t k = 0; k < joint_of.size(); ++k) {
        const PathTimingProblem::Linear& was = previous->linear[first + k];
        PathTimingProblem::Linear& limit = p.linear[first + k];
        limit.a[i] = was.a[reuse[i]];
        limit.b[i] = was.b[reuse[i]];
        limit.c[i] = was.c[reuse[i]];
      }
      continue;
    }
    curve.Evaluate(grid[i], q, &d1, &d2);
    PathTorqueCoefficients(context.model, *context.dynamics, q, d1, d2, context.gravity,
                           context.payload, a, b, c);
    for (std::size_t k = 0; k < joint_of.size(); ++k) {
      PathTimingProblem::Linear& limit = p.linear[first + k];
      limit.a[i] = a[joint_of[k]];
      limit.b[i] = b[joint_of[k]];
      limit.c[i] = HoldingShifted(c[joint_of[k]], context.limits[joint_of[k]].max_torque);
    }
  }
}

// `grid` with every knot of `curve` in [from, to] and the middle of every
// piece added (the curve's derivatives change fastest where its knots are
// dense), sorted, nodes closer than 1e-12 made one, the last exactly `to`.
std::vector<double> WithKnots(const JointCurve& curve, std::vector<double> grid, double from,
                              double to) {
  const std::vector<double>& knots = curve.knots();
  for (std::size_t k = 0; k + 1 < knots.size(); ++k) {
    for (double v : {knots[k], 0.5 * (knots[k] + knots[k + 1])}) {
      if (v >= from && v <= to) grid.push_back(v);
    }
  }
  std::sort(grid.begin(), grid.end());
  std::vector<double> out;
  for (double s : grid) {
    if (out.empty() || s - out.back() > 1e-12) out.push_back(s);
  }
  out.back() = to;
  return out;
}

// The first grid: uniform at about one node per sample of the programmed
// timing, and the curve's knots (WithKnots).
std::vector<double> FirstGrid(const JointCurve& curve, double programmed_duration, double dt) {
  const int uniform = static_cast<int>(std::clamp(std::ceil(programmed_duration / dt) + 1,
                                                  static_cast<double>(kMinTimingNodes),
                                                  static_cast<double>(kMaxNodes / 4)));
  return WithKnots(curve, UniformGrid(uniform), 0.0, 1.0);
}

// Solves the timing problem on t.grid (`setup` adds what the caller asks:
// caps, held end speeds) and, with `refine`, refines the grid (RefinedGrid)
// until no interval lasts more than a quarter of a sample, a few times at
// most, each problem lending its rows to the next; stops early where an end
// speed could not be held.
void SolveRefined(const JointCurve& curve, const SegmentContext& context, const SpeedSpec& speed,
                  const CartesianExtent& extent,
                  const std::function<void(PathTimingProblem&)>& setup, bool refine,
                  CurveTiming& t) {
  const double longest = kIntervalPerSample * context.sample_time * context.speed_override;
  for (int pass = 0;; ++pass) {
    PathTimingProblem problem = CurveTimingProblem(curve, context, speed, extent, t.grid, false,
                                                   t.problem.nodes > 0 ? &t.problem : nullptr);
    setup(problem);
    t.solution = SolvePathTiming(problem);
    t.problem = std::move(problem);
    if (!refine || pass == kRefinements || !t.solution.ends_held) break;
    std::vector<double> finer = RefinedGrid(PathTiming(t.solution.x, t.grid), longest, kMaxNodes);
    if (finer.size() == t.grid.size()) break;
    t.grid = std::move(finer);
  }
}

}  // namespace

PathTimingProblem CurveTimingProblem(const JointCurve& curve, const SegmentContext& context,
                                     const SpeedSpec& speed, const CartesianExtent& extent,
                                     const std::vector<double>& grid, bool tcp_only,
                                     const PathTimingProblem* previous) {
  const int nodes = static_cast<int>(grid.size());
  // Each node's row of `previous` at the same s (its grid refined), or -1.
  std::vector<long> reuse(grid.size(), -1);
  if (previous != nullptr) {
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const auto it = std::lower_bound(previous->s.begin(), previous->s.end(), grid[i]);
      if (it != previous->s.end() && *it == grid[i]) reuse[i] = it - previous->s.begin();
    }
  }
  const int dof = curve.dof();
  const bool jerk = context.profile == ProfileKind::kJerkLimited;
  PathTimingProblem p;
  p.nodes = nodes;
  p.s = grid;
  auto add = [&](double v, double a, double j) {
    p.max_velocity.push_back(v);
    p.max_acceleration.push_back(a);
    p.max_jerk.push_back(jerk ? j : kInf);
  };
  if (!tcp_only) {
    for (int j = 0; j < dof; ++j) {
      const JointLimits& l = context.limits[j];
      add(kVelocityMargin * l.max_velocity, kAccelerationMargin * l.max_acceleration,
          kJerkMargin * l.max_jerk);
    }
  }
  const bool linear = extent.length > 1e-12, angular = extent.rotation > 1e-12;
  // A single motion's timing is checked against the programmed one, which
  // it never exceeds; a run's TCP moves on its own rates (the header).
  const double tcp_margin = extent.rates ? kRunTcpVelocityMargin : 1.0;
  if (linear) {
    add(tcp_margin * speed.linear_velocity, speed.linear_acceleration, speed.linear_jerk);
  }
  if (angular) add(speed.angular_velocity, speed.angular_acceleration, speed.angular_jerk);
  p.quantities = static_cast<int>(p.max_velocity.size());
  const std::size_t size = static_cast<std::size_t>(nodes) * p.quantities;
  p.d1.assign(size, 0.0);
  p.d2.assign(size, 0.0);
  p.d3.assign(size, 0.0);
  Eigen::VectorXd q, d1, d2, d3;
  for (int i = 0; i < nodes; ++i) {
    const std::size_t row = static_cast<std::size_t>(i) * p.quantities;
    if (reuse[i] >= 0) {
      const std::size_t was = static_cast<std::size_t>(reuse[i]) * p.quantities;
      std::copy_n(previous->d1.begin() + was, p.quantities, p.d1.begin() + row);
      std::copy_n(previous->d2.begin() + was, p.quantities, p.d2.begin() + row);
      std::copy_n(previous->d3.begin() + was, p.quantities, p.d3.begin() + row);
      continue;
    }
    int m = 0;
    if (!tcp_only) {
      curve.Evaluate(grid[i], q, &d1, &d2, &d3);
      for (int j = 0; j < dof; ++j, ++m) {
        p.d1[row + m] = d1[j];
        p.d2[row + m] = d2[j];
        p.d3[row + m] = d3[j];
      }
    }
    if (extent.rates) {
      const TcpRates r = extent.rates(grid[i]);
      auto put = [&](const double* d) {
        p.d1[row + m] = d[0];
        p.d2[row + m] = d[1];
        p.d3[row + m++] = d[2];
      };
      if (linear) put(r.linear);
      if (angular) put(r.angular);
      continue;
    }
    if (linear) p.d1[row + m++] = extent.length;
    if (angular) p.d1[row + m++] = extent.rotation;
  }
  if (!tcp_only && context.dynamics != nullptr) {
    AddTorqueLimits(curve, context, grid, reuse, previous, p);
  }
  return p;
}

std::vector<double> UniformGrid(int nodes) {
  std::vector<double> grid(nodes);
  for (int i = 0; i < nodes; ++i) grid[i] = static_cast<double>(i) / (nodes - 1);
  grid.back() = 1.0;
  return grid;
}

CurveTiming SolveCurveTiming(const JointCurve& curve, const SegmentContext& context,
                             const SpeedSpec& speed, const CartesianExtent& extent,
                             double programmed_duration, const std::vector<double>& caps,
                             const std::vector<double>& grid) {
  CurveTiming t;
  const bool again = !caps.empty() && caps.size() == grid.size();
  t.grid = again ? grid : FirstGrid(curve, programmed_duration, context.sample_time);
  SolveRefined(
      curve, context, speed, extent,
      [&](PathTimingProblem& p) {
        if (again) p.max_speed_squared = caps;
      },
      !again, t);
  return t;
}

CurveTiming SolveCurveTimingBetween(const JointCurve& curve, const SegmentContext& context,
                                    const SpeedSpec& speed, const CartesianExtent& extent,
                                    double from, double to, double start_x, double end_x,
                                    double node_spacing) {
  const int uniform = static_cast<int>(std::clamp(std::ceil((to - from) / node_spacing) + 1, 16.0,
                                                  static_cast<double>(kMaxNodes / 4)));
  std::vector<double> grid;
  for (int i = 0; i < uniform; ++i) grid.push_back(from + (to - from) * i / (uniform - 1));
  CurveTiming t;
  t.grid = WithKnots(curve, std::move(grid), from, to);
  SolveRefined(
      curve, context, speed, extent,
      [&](PathTimingProblem& p) {
        p.start_speed_squared = start_x;
        p.end_speed_squared = end_x;
      },
      true, t);
  return t;
}

namespace {

// The time (own) at which `timing` reaches each node.
std::vector<double> NodeTimes(const PathTiming& timing) {
  std::vector<double> t(timing.nodes().size(), 0.0);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) t[i + 1] = t[i] + timing.IntervalTime(i);
  return t;
}

std::size_t NearestNode(const std::vector<double>& grid, double s) {
  const auto it = std::lower_bound(grid.begin(), grid.end(), s);
  if (it == grid.begin()) return 0;
  if (it == grid.end()) return grid.size() - 1;
  const std::size_t i = static_cast<std::size_t>(it - grid.begin());
  return s - grid[i - 1] < grid[i] - s ? i - 1 : i;
}

// Every `stride`-th node of `p` (and its last), with `x` likewise.
PathTimingProblem EveryNth(const PathTimingProblem& p, std::size_t stride, std::vector<double>& x) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < p.s.size(); i += stride) kept.push_back(i);
  if (kept.back() + 1 != p.s.size()) kept.push_back(p.s.size() - 1);
  PathTimingProblem out = p;
  out.nodes = static_cast<int>(kept.size());
  out.s.clear();
  out.d1.clear(), out.d2.clear(), out.d3.clear();
  for (PathTimingProblem::Linear& l : out.linear) l.a.clear(), l.b.clear(), l.c.clear();
  std::vector<double> kept_x;
  const std::size_t q = static_cast<std::size_t>(p.quantities);
  for (std::size_t i : kept) {
    out.s.push_back(p.s[i]);
    out.d1.insert(out.d1.end(), p.d1.begin() + i * q, p.d1.begin() + (i + 1) * q);
    out.d2.insert(out.d2.end(), p.d2.begin() + i * q, p.d2.begin() + (i + 1) * q);
    out.d3.insert(out.d3.end(), p.d3.begin() + i * q, p.d3.begin() + (i + 1) * q);
    for (std::size_t k = 0; k < out.linear.size(); ++k) {
      out.linear[k].a.push_back(p.linear[k].a[i]);
      out.linear[k].b.push_back(p.linear[k].b[i]);
      out.linear[k].c.push_back(p.linear[k].c[i]);
    }
    if (!x.empty()) kept_x.push_back(x[i]);
  }
  out.max_speed_squared.clear();
  x = std::move(kept_x);
  return out;
}

// Stops are priced on a grid of about this many nodes at most: a
// difference of two timings' durations needs far fewer than a timing's
// samples do.
constexpr std::size_t kStopPricingNodes = 1000;

}  // namespace

std::vector<double> StopCosts(PathTimingProblem problem, std::vector<double> solved,
                              const std::vector<double>& stops) {
  std::vector<double> costs(stops.size(), 0.0);
  if (stops.empty() || problem.s.size() < 3) return costs;
  if (solved.size() != problem.s.size()) solved.clear();
  const std::size_t stride = (problem.s.size() + kStopPricingNodes - 1) / kStopPricingNodes;
  if (stride > 1) problem = EveryNth(problem, stride, solved);
  const std::vector<double> grid = problem.s;
  if (solved.empty()) solved = SolvePathTiming(problem).x;
  problem.max_speed_squared = solved;
  for (double s : stops) {
    const std::size_t i = NearestNode(grid, s);
    if (i > 0 && i + 1 < grid.size()) problem.max_speed_squared[i] = 0.0;
  }
  const PathTimingSolution stopped = SolvePathTiming(problem);
  const std::vector<double> fast = NodeTimes(PathTiming(solved, grid));
  const std::vector<double> slow = NodeTimes(PathTiming(stopped.x, grid));
  auto cost_until = [&](double s) {
    const std::size_t i = NearestNode(grid, s);
    return slow[i] - fast[i];
  };
  double before = 0.0;
  for (std::size_t k = 0; k < stops.size(); ++k) {
    const double until = k + 1 < stops.size() ? cost_until(0.5 * (stops[k] + stops[k + 1]))
                                              : slow.back() - fast.back();
    costs[k] = until - before;
    before = until;
  }
  return costs;
}

bool KeepsTcpLimits(const PathProfile& played, const CartesianExtent& extent,
                    const SpeedSpec& speed, double dt, bool with_jerk,
                    std::vector<double>* broken) {
  bool kept = true;
  constexpr double kInfinite = std::numeric_limits<double>::infinity();
  const double slack = 1 + 1e-6;
  const long samples = std::lround(played.duration() / dt);
  for (long k = 0; k <= samples; ++k) {
    const PathProfile::State st = played.At(static_cast<double>(k) * dt);
    const TcpRates r = extent.rates(st.s);
    auto within = [&](const double* d, double v, double a, double j) {
      return std::abs(d[0] * st.sd) <= v * slack &&
             std::abs(d[0] * st.sdd + d[1] * st.sd * st.sd) <= a * slack &&
             std::abs(d[0] * st.sddd + 3 * d[1] * st.sd * st.sdd + d[2] * st.sd * st.sd * st.sd) <=
                 j * slack;
    };
    if (!within(r.linear, speed.linear_velocity, speed.linear_acceleration,
                with_jerk ? speed.linear_jerk : kInfinite) ||
        !within(r.angular, speed.angular_velocity, speed.angular_acceleration,
                with_jerk ? speed.angular_jerk : kInfinite)) {
      kept = false;
      if (broken == nullptr) return false;
      broken->push_back(st.s);
    }
  }
  return kept;
}

Diagnostic TimingStall(const JointCurve& curve, const SegmentContext& context, double s) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = DiagnosticCode::kAccelLimit;
  d.message =
      absl::StrCat("the joints cannot move along the path at s = ", s,
                   " within their limits (no speed there keeps every acceleration in them)");
  if (context.dynamics == nullptr) return d;
  Eigen::VectorXd q, d1, d2, a, b, c;
  curve.Evaluate(s, q, &d1, &d2);
  PathTorqueCoefficients(context.model, *context.dynamics, q, d1, d2, context.gravity,
                         context.payload, a, b, c);
  int worst = -1;
  double worst_ratio = 1.0;
  for (int j = 0; j < curve.dof(); ++j) {
    const double limit = context.limits[j].max_torque;
    if (limit > 0 && std::abs(c[j]) / limit > worst_ratio) {
      worst = j;
      worst_ratio = std::abs(c[j]) / limit;
    }
  }
  if (worst < 0) return d;
  d.code = DiagnosticCode::kTorqueLimit;
  d.joint_name = context.model.dof_names[worst];
  d.value = std::abs(c[worst]);
  d.limit = context.limits[worst].max_torque;
  const bool prismatic = context.model.dof_types[worst] == JointType::kPrismatic;
  d.message = absl::StrCat(
      "joint ", QuoteUntrusted(d.joint_name), " needs ", d.value, prismatic ? " N" : " N*m",
      " just to hold the arm (gravity and payload) at s = ", s, " of the path, more than its ",
      "max_torque ", d.limit, " (", worst_ratio, " x): no speed moves it there");
  return d;
}

}  // namespace motion
