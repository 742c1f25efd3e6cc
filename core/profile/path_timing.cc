#include "core/profile/path_timing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = 1e-12;
constexpr int kMaxSweeps = 50;
constexpr int kMaxRounds = 8;
// Jerk along a path is y' sddd + 3 y'' sd sdd + y''' sd^3. The last term
// is bounded with the speed (at most kCruiseJerkShare of the limit: the
// maximum-velocity curve), the middle one with sdd (at most a share of the
// limit that each node takes from what it would be at its fastest, capped at
// kCouplingJerkShare), and what is left, at least 1 - both, bounds the
// curvature of sd^2 that rounds corners (y' sddd = y' (sd^2)'' sd / 2).
// Each bound then depends on sd^2 alone and only loosens as it is lowered.
constexpr double kCruiseJerkShare = 0.5;
constexpr double kCouplingJerkShare = 0.3;
// Rounds stop when the time along the path changes less than this.
constexpr double kSettled = 1e-5;
// Nodes on each side of a corner that its opening takes in at least.
constexpr int kOpeningMargin = 4;
// RefinedGrid's nodes crowd towards a rest no closer than this (in s): the
// interval from rest to there lasts (6 h / J)^(1/3), about 1 ms for h =
// 1e-9 at a path jerk of 6 per s^3, below any sample time.
constexpr double kFinestEndNode = 1e-9;

std::vector<double> Grid(const PathTimingProblem& p) {
  if (static_cast<int>(p.s.size()) == p.nodes) return p.s;
  std::vector<double> s(p.nodes);
  for (int i = 0; i < p.nodes; ++i) s[i] = static_cast<double>(i) / (p.nodes - 1);
  s.back() = 1.0;
  return s;
}

// One acceleration-type constraint of a node as bounds on sdd that move
// with x = sd^2: lower(x) = alpha_low + beta x <= sdd <= alpha_up + beta x.
struct Line {
  double alpha_low, alpha_up, beta;
};

class Sweeper {
 public:
  explicit Sweeper(const PathTimingProblem& p)
      : p_(p), n_(p.nodes), m_(p.quantities), s_(Grid(p)), h_(p.nodes - 1) {
    for (int i = 0; i + 1 < n_; ++i) h_[i] = s_[i + 1] - s_[i];
    lines_.resize(n_);
    mvc_.assign(n_, kInf);
    coupling_share_.assign(static_cast<std::size_t>(n_) * m_, 0.0);
    for (int i = 0; i < n_; ++i) BuildNode(i);
  }

  PathTimingSolution Solve() {
    PathTimingSolution out;
    x_ = mvc_;
    if (static_cast<int>(p_.max_speed_squared.size()) == n_) {
      for (int i = 0; i < n_; ++i) x_[i] = std::min(x_[i], p_.max_speed_squared[i]);
    }
    // The ends: at rest, or held at their speed over their interval.
    held_front_ = p_.start_speed_squared > 0 && n_ >= 5 ? 1 : 0;
    held_back_ = p_.end_speed_squared > 0 && n_ >= 5 ? 1 : 0;
    x_.front() = held_front_ ? p_.start_speed_squared : 0.0;
    x_.back() = held_back_ ? p_.end_speed_squared : 0.0;
    if (held_front_) x_[1] = x_.front();
    if (held_back_) x_[n_ - 2] = x_.back();
    for (int i = 0; i < n_; ++i) {
      if (Held(i) && x_[i] > mvc_[i] * (1 + 1e-9)) ends_held_ = false;
    }
    StartStopBounds();
    double last_time = kInf;
    for (int round = 0; round < kMaxRounds; ++round) {
      // Velocity, acceleration and the valleys of jerk: each sweep carries
      // its bounds along its own direction, so a few settle them.
      for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        const double scale = std::max(1e-300, *std::max_element(x_.begin(), x_.end()));
        tolerance_ = 1e-12 * scale;
        ++out.sweeps;
        bool changed = Backward();
        changed = Forward() || changed;
        if (!changed) break;
      }
      // The peaks of jerk, at once.
      Opening();
      const double time = Duration();
      if (std::abs(time - last_time) <= kSettled * time) {
        out.converged = true;
        break;
      }
      last_time = time;
    }
    out.x = x_;
    out.ends_held = ends_held_;
    return out;
  }

 private:
  double D(const std::vector<double>& d, int i, int m) const {
    return d[static_cast<std::size_t>(i) * m_ + m];
  }

  void AddAcceleration(int i, double A, double B, double C, double lo, double hi) {
    if (std::abs(A) > kTiny) {
      Line l;
      l.beta = -B / A;
      l.alpha_low = ((A > 0 ? lo : hi) - C) / A;
      l.alpha_up = ((A > 0 ? hi : lo) - C) / A;
      lines_[i].push_back(l);
    } else if (std::abs(B) > kTiny) {  // x alone: lo <= B x + C <= hi
      mvc_[i] = std::min(mvc_[i], std::max(0.0, ((B > 0 ? hi : lo) - C) / B));
    }
  }

  // The node's acceleration lines and its maximum-velocity curve: every
  // velocity bound, the jerk of cruising (y''' sd^3), and the largest x at
  // which some sdd satisfies every acceleration line (each pair of lines,
  // by Fourier-Motzkin elimination of sdd).
  void BuildNode(int i) {
    for (int m = 0; m < m_; ++m) {
      const double d1 = D(p_.d1, i, m), d2 = D(p_.d2, i, m), d3 = D(p_.d3, i, m);
      const double v = p_.max_velocity[m], a = p_.max_acceleration[m], j = p_.max_jerk[m];
      if (std::isfinite(v) && std::abs(d1) > kTiny) {
        mvc_[i] = std::min(mvc_[i], (v / d1) * (v / d1));
      }
      if (std::isfinite(a)) AddAcceleration(i, d1, d2, 0.0, -a, a);
      (void)j;
      (void)d3;
    }
    for (const PathTimingProblem::Linear& c : p_.linear) {
      AddAcceleration(i, c.a[i], c.b[i], c.c[i], c.lower, c.upper);
    }
    const std::vector<Line>& lines = lines_[i];
    for (std::size_t k = 0; k < lines.size(); ++k) {
      for (std::size_t l = 0; l < lines.size(); ++l) {
        const double slope = lines[k].beta - lines[l].beta;
        if (k == l || slope <= kTiny) continue;
        mvc_[i] =
            std::min(mvc_[i], std::max(0.0, (lines[l].alpha_up - lines[k].alpha_low) / slope));
      }
      if (lines[k].alpha_up < lines[k].alpha_low) mvc_[i] = 0.0;
    }
    // The shares of jerk: cruising, then sdd at its largest at rest (the
    // tightest lines) and full speed.
    double low = -kInf, up = kInf;
    for (const Line& l : lines) {
      low = std::max(low, l.alpha_low);
      up = std::min(up, l.alpha_up);
    }
    const double sdd_at_rest = lines.empty() ? 0.0 : std::max(std::abs(low), std::abs(up));
    for (int m = 0; m < m_; ++m) {
      const double j = p_.max_jerk[m], d3 = std::abs(D(p_.d3, i, m));
      if (std::isfinite(j) && d3 > kTiny) {
        mvc_[i] = std::min(mvc_[i], std::pow(kCruiseJerkShare * j / d3, 2.0 / 3.0));
      }
    }
    for (int m = 0; m < m_; ++m) {
      const double j = p_.max_jerk[m], d2 = std::abs(D(p_.d2, i, m));
      double& share = coupling_share_[static_cast<std::size_t>(i) * m_ + m];
      share = 0.0;
      if (!std::isfinite(j) || d2 <= kTiny) continue;
      const double fastest = std::isfinite(mvc_[i]) ? std::sqrt(mvc_[i]) : kInf;
      share = std::min(kCouplingJerkShare, 3 * d2 * fastest * sdd_at_rest / j);
      if (!(share >= 0)) share = kCouplingJerkShare;
    }
  }

  // Time along the path if sdd were constant on each interval.
  double Duration() const {
    double t = 0;
    for (int i = 0; i + 1 < n_; ++i) {
      const double v = std::sqrt(x_[i]) + std::sqrt(x_[i + 1]);
      t += v > 0 ? 2 * h_[i] / v : kInf;
    }
    return t;
  }

  double LowerSdd(int i, double x) const {
    double lo = -CouplingSdd(i, x);
    for (const Line& l : lines_[i]) lo = std::max(lo, l.alpha_low + l.beta * x);
    return lo;
  }
  double UpperSdd(int i, double x) const {
    double hi = CouplingSdd(i, x);
    for (const Line& l : lines_[i]) hi = std::min(hi, l.alpha_up + l.beta * x);
    return hi;
  }
  // |sdd| that keeps 3 y'' sd sdd within its share of every jerk limit.
  double CouplingSdd(int i, double x) const {
    double bound = kInf;
    const double root = std::sqrt(std::max(x, 0.0));
    for (int m = 0; m < m_; ++m) {
      const double d2 = std::abs(D(p_.d2, i, m)), j = p_.max_jerk[m];
      const double share = coupling_share_[static_cast<std::size_t>(i) * m_ + m];
      if (std::isfinite(j) && share > 0 && d2 * root > 0) {
        bound = std::min(bound, share * j / (3 * d2 * root));
      }
    }
    return bound;
  }

  // Jerk from rest: sd^2 at the first node after a start (or before a
  // stop) cannot exceed what the largest jerk of s allows there, s = J
  // t^3 / 6, so sd^2 = (6^(4/3) / 4) J^(2/3) s^(4/3).
  void StartStopBounds() {
    if (n_ < 3) return;
    for (int end : {0, n_ - 1}) {
      if ((end == 0 && held_front_) || (end == n_ - 1 && held_back_)) continue;
      double jerk = kInf;
      for (int m = 0; m < m_; ++m) {
        const double d1 = std::abs(D(p_.d1, end, m));
        if (std::isfinite(p_.max_jerk[m]) && d1 > kTiny) jerk = std::min(jerk, p_.max_jerk[m] / d1);
      }
      if (!std::isfinite(jerk)) continue;
      const double h = end == 0 ? h_.front() : h_.back();
      const double bound =
          std::pow(6.0, 4.0 / 3.0) / 4.0 * std::cbrt(jerk * jerk) * std::pow(h, 4.0 / 3.0);
      double& x = x_[end == 0 ? 1 : n_ - 2];
      x = std::min(x, bound);
    }
  }

  // The ends and, where an end speed is held, the node next to it.
  bool Held(int i) const { return i <= held_front_ || i >= n_ - 1 - held_back_; }

  bool Lower(int i, double value) {
    value = std::max(0.0, value);
    if (Held(i)) {
      // A held speed that a constraint asks to lower is not kept (a rest,
      // x = 0, cannot be asked lower).
      if (value < x_[i] * (1 - 1e-6) - tolerance_) ends_held_ = false;
      return false;
    }
    if (value >= x_[i]) return false;
    const bool changed = x_[i] - value > tolerance_;
    x_[i] = value;
    return changed;
  }

  // Slope of sd^2 on interval i (= 2 sdd there).
  double Slope(int i) const { return (x_[i + 1] - x_[i]) / h_[i]; }

  // Bounds on (sd^2)'' at interior node i from every jerk limit: what the
  // limit leaves of y' sddd = y' (sd^2)'' sd / 2 after the cruising term at
  // the current speed and the sdd term's share; symmetric, at least 1 -
  // both shares of the limit, and only growing as sd^2 is lowered.
  bool JerkBounds(int i, double& c_low, double& c_high) const {
    c_low = -kInf, c_high = kInf;
    const double x = std::max(x_[i], 0.0);
    const double root = std::sqrt(std::max(x, 1e-300));
    for (int m = 0; m < m_; ++m) {
      const double j = p_.max_jerk[m];
      const double d1 = std::abs(D(p_.d1, i, m));
      if (!std::isfinite(j) || d1 <= kTiny) continue;
      const double share = coupling_share_[static_cast<std::size_t>(i) * m_ + m];
      const double left =
          (j * (1 - share) - std::abs(D(p_.d3, i, m)) * x * std::sqrt(x)) / (0.5 * d1 * root);
      c_high = std::min(c_high, left);
      c_low = std::max(c_low, -left);
    }
    return c_high >= 0;
  }

  // Jerk at node i (peaks: Opening). A valley sharper than allowed (sdd
  // rising too fast) is widened where that keeps the motion's direction:
  // after an acceleration into the node the next node is lowered (sdd
  // builds up), before a deceleration out of it the previous one (braking
  // starts earlier), at the bottom of a valley both, each by half the
  // allowed rise. Every move lowers sd^2 and none turns an acceleration
  // into a deceleration, so nothing cascades.
  bool Jerk(int i) {
    if (i <= 0 || i >= n_ - 1) return false;
    double c_low, c_high;
    if (!JerkBounds(i, c_low, c_high)) return Lower(i, 0.9 * x_[i]);
    if (!std::isfinite(c_high)) return false;
    // (sd^2)'' = 2 (slope_i - slope_{i-1}) / (h_{i-1} + h_i) <= c_high.
    const double rise = 0.5 * c_high * (h_[i - 1] + h_[i]);
    const double before = Slope(i - 1), after = Slope(i);
    if (after - before <= rise) return false;
    if (before >= 0) return Lower(i + 1, x_[i] + h_[i] * (before + rise));
    if (after <= 0) return Lower(i - 1, x_[i] - h_[i - 1] * (after - rise));
    bool changed = Lower(i - 1, x_[i] + 0.5 * h_[i - 1] * rise);
    changed |= Lower(i + 1, x_[i] + 0.5 * h_[i] * rise);
    return changed;
  }

  // Peaks of sd^2: (sd^2)'' >= -c at every node (c from the jerk limits at
  // its current speed) by the largest function below x whose curvature is
  // nowhere below -c, the morphological opening of x by parabolas: the
  // highest parabola of curvature -c_j with its apex at node j under x
  // (erosion), then the upper envelope of those parabolas (dilation). It
  // rounds every concave corner from below in one step, where relaxing the
  // three-point bound node by node would diffuse over many sweeps.
  void Opening() {
    // A function whose curvature is nowhere below -c is its own opening (its
    // tangent parabolas lie below it), so only the stretches around nodes
    // that are sharper than allowed change: those are found first, each
    // as wide as the parabola that rounds its corner (slope change / c) and
    // a few nodes more, and opened with the smallest c in it (the roundest
    // parabola, so every node's own bound holds).
    std::vector<double> curvature(n_, kInf);
    std::vector<std::pair<int, int>> stretches;
    for (int j = 1; j + 1 < n_; ++j) {
      double c_low, c_high;
      JerkBounds(j, c_low, c_high);
      if (!std::isfinite(c_low)) continue;
      curvature[j] = std::max(0.0, -c_low);
      const double turn = Slope(j - 1) - Slope(j);
      if (2 * -turn / (h_[j - 1] + h_[j]) >= c_low) continue;
      const double reach = std::max(2 * turn / std::max(curvature[j], 1e-300), 0.0);
      int first = j, last = j;
      while (first > 0 && (s_[j] - s_[first - 1] <= reach || j - first < kOpeningMargin)) --first;
      while (last + 1 < n_ && (s_[last + 1] - s_[j] <= reach || last - j < kOpeningMargin)) ++last;
      if (!stretches.empty() && first <= stretches.back().second) {
        stretches.back().second = std::max(stretches.back().second, last);
      } else {
        stretches.emplace_back(first, last);
      }
    }
    for (const auto& [first, last] : stretches) {
      double c = kInf, steepest = 0;
      for (int i = first; i <= last; ++i) c = std::min(c, curvature[i]);
      if (!std::isfinite(c)) continue;
      c = std::max(c, 1e-300);
      for (int i = std::max(first - 1, 0); i <= std::min(last, n_ - 2); ++i) {
        steepest = std::max(steepest, std::abs(Slope(i)));
      }
      // The opening at a node looks |slope| / c to each side of it, so the
      // stretch is opened inside a window that much wider (counting the
      // slopes met on the way out, and a few nodes more): where a window
      // cuts x off inside the array, the opening next to the cut falls
      // below x, a false cliff that must stay out of what is kept.
      // From `edge` outwards by `step` (-1, +1) as far as the padding asks.
      auto widen = [&](int edge, int step) {
        int i = edge;
        double pad = 1.5 * steepest / c;
        while (i + step >= 0 && i + step < n_ &&
               (std::abs(s_[i + step] - s_[edge]) <= pad || std::abs(i - edge) < kOpeningMargin)) {
          i += step;
          const int slope = step < 0 ? i - 1 : i;  // the interval just beyond
          if (slope >= 0 && slope + 1 < n_) pad = std::max(pad, 1.5 * std::abs(Slope(slope)) / c);
        }
        return i;
      };
      OpenStretch(widen(first, -1), widen(last, +1), c, first, last);
    }
  }

  // The opening of x over the window of nodes [from, to] by parabolas of
  // curvature -c: erosion h = min_i x_i + c (s - s_i)^2 / 2, then dilation
  // max_j h_j - c (s - s_j)^2 / 2, each a lower envelope of parabolas
  // (Felzenszwalb and Huttenlocher's distance transform, linear in the
  // nodes), kept on [first, last] and as far beyond as it is still below x
  // and free of the window's cut-off ends (|slope| / c from them): kept
  // only up to where the opening has not met x yet, the stretch would end
  // in a notch.
  void OpenStretch(int from, int to, double c, int first, int last) {
    const int span = to - from + 1;
    const double* pos = s_.data() + from;
    std::vector<double> eroded(span), negated(span), opened(span);
    LowerEnvelope(pos, x_.data() + from, span, c, eroded.data());
    for (int i = 0; i < span; ++i) negated[i] = -eroded[i];
    LowerEnvelope(pos, negated.data(), span, c, opened.data());
    auto below = [&](int i) { return -opened[i - from] < x_[i] * (1 - 1e-9); };
    auto clear_of_cuts = [&](int i) {
      const double reach = 1.5 * std::max(std::abs(Slope(i - 1)), std::abs(Slope(i))) / c;
      return (from == 0 || s_[i] - s_[from] > reach) && (to == n_ - 1 || s_[to] - s_[i] > reach);
    };
    while (first - 1 > from && below(first - 1) && clear_of_cuts(first - 1)) --first;
    while (last + 1 < to && below(last + 1) && clear_of_cuts(last + 1)) ++last;
    for (int i = std::max(first, 1); i <= std::min(last, n_ - 2); ++i) {
      Lower(i, -opened[i - from]);
    }
  }

  // out[q] = min_p f[p] + c (pos[q] - pos[p])^2 / 2 over p in [0, n), for
  // increasing pos.
  void LowerEnvelope(const double* pos, const double* f, int n, double c, double* out) {
    envelope_apex_.resize(n);
    envelope_from_.resize(n + 1);
    auto key = [&](int p) { return f[p] + 0.5 * c * pos[p] * pos[p]; };
    int k = 0;
    envelope_apex_[0] = 0;
    envelope_from_[0] = -kInf;
    envelope_from_[1] = kInf;
    for (int q = 1; q < n; ++q) {
      double cross;
      for (;;) {
        const int p = envelope_apex_[k];
        cross = (key(q) - key(p)) / (c * (pos[q] - pos[p]));
        if (cross > envelope_from_[k] || k == 0) break;
        --k;
      }
      if (cross <= envelope_from_[k]) {  // q's parabola is lower everywhere
        envelope_apex_[k] = q;
        envelope_from_[k + 1] = kInf;
        continue;
      }
      ++k;
      envelope_apex_[k] = q;
      envelope_from_[k] = cross;
      envelope_from_[k + 1] = kInf;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
      while (envelope_from_[k + 1] < pos[q]) ++k;
      const int p = envelope_apex_[k];
      const double d = pos[q] - pos[p];
      out[q] = f[p] + 0.5 * c * d * d;
    }
  }

  // Braking: node i must reach x[i + 1] with an sdd that the acceleration
  // lines of both nodes allow (sdd = (x[i + 1] - x[i]) / (2 h)).
  bool Backward() {
    bool changed = false;
    for (int i = n_ - 2; i >= 1; --i) {
      const double k = 1.0 / (2 * h_[i]);
      double bound = std::min(mvc_[i], x_[i + 1] - 2 * h_[i] * LowerSdd(i + 1, x_[i + 1]));
      for (const Line& l : lines_[i]) {
        const double coefficient = k + l.beta;
        if (coefficient > kTiny)
          bound = std::min(bound, (k * x_[i + 1] - l.alpha_low) / coefficient);
      }
      changed |= Lower(i, bound);
      // Jerk where both neighbours have had this sweep's bounds.
      changed |= Jerk(i + 1);
    }
    return changed;
  }

  // Accelerating: node i + 1 is reached from x[i] with an allowed sdd.
  bool Forward() {
    bool changed = false;
    for (int i = 0; i + 1 <= n_ - 2; ++i) {
      const double k = 1.0 / (2 * h_[i]);
      double bound = std::min(mvc_[i + 1], x_[i] + 2 * h_[i] * UpperSdd(i, x_[i]));
      for (const Line& l : lines_[i + 1]) {
        const double coefficient = k - l.beta;
        if (coefficient > kTiny) bound = std::min(bound, (l.alpha_up + k * x_[i]) / coefficient);
      }
      changed |= Lower(i + 1, bound);
      changed |= Jerk(i);
    }
    return changed;
  }

  const PathTimingProblem& p_;
  const int n_, m_;
  const std::vector<double> s_;
  std::vector<double> h_;
  std::vector<std::vector<Line>> lines_;
  std::vector<double> mvc_, x_;
  int held_front_ = 0, held_back_ = 0;  ///< 1: that end's speed is held
  bool ends_held_ = true;
  std::vector<double> coupling_share_;  ///< nodes x quantities: of the jerk limit, for 3 y'' sd sdd
  double tolerance_ = 0.0;
  std::vector<int> envelope_apex_;
  std::vector<double> envelope_from_;
};

}  // namespace

PathTimingSolution SolvePathTiming(const PathTimingProblem& problem) {
  if (problem.nodes < 2)
    return PathTimingSolution{std::vector<double>(problem.nodes, 0.0), 0, true};
  return Sweeper(problem).Solve();
}

PathTiming::PathTiming(const std::vector<double>& x, const std::vector<double>& s) : x_(x) {
  const int n = static_cast<int>(x.size());
  PathTimingProblem grid;
  grid.nodes = n;
  grid.s = s;
  s_ = n > 1 ? Grid(grid) : std::vector<double>(n, 0.0);
  v_.resize(n);
  a_.assign(std::max(0, n - 1), 0.0);
  time_.assign(n, 0.0);
  for (int i = 0; i < n; ++i) v_[i] = std::sqrt(std::max(0.0, x[i]));
  for (int i = 0; i + 1 < n; ++i) {
    const double h = s_[i + 1] - s_[i];
    // Constant sdd on the interval, as the sweeps assume; from or to rest,
    // constant jerk instead (s ~ t^3: the motion starts and stops with
    // zero acceleration).
    double T;
    if (Cubic(i)) {
      T = 3 * h / std::max(v_[i], v_[i + 1]);
    } else {
      a_[i] = (x[i + 1] - x[i]) / (2 * h);
      T = 2 * h / (v_[i] + v_[i + 1]);
    }
    time_[i + 1] = time_[i] + (std::isfinite(T) ? T : 0.0);
  }
}

bool PathTiming::Cubic(std::size_t i) const {
  return (i == 0 || i + 2 == s_.size()) && s_.size() > 2 && (v_[i] == 0 || v_[i + 1] == 0);
}

void PathTiming::StretchTo(double duration) {
  const double own = time_.back();
  if (own > 0 && duration > own) scale_ = duration / own;
}

PathTiming::State PathTiming::At(double t) const {
  State st;
  const std::size_t n = time_.size();
  if (n < 2) return st;
  const double tau = std::clamp(t / scale_, 0.0, time_.back());
  std::size_t i =
      static_cast<std::size_t>(std::upper_bound(time_.begin(), time_.end(), tau) - time_.begin());
  i = std::clamp<std::size_t>(i, 1, n - 1) - 1;
  const double T = time_[i + 1] - time_[i];
  if (!(T > 0)) {
    st.s = s_[i];
    return st;
  }
  const double h = s_[i + 1] - s_[i];
  double r = tau - time_[i];
  if (Cubic(i)) {
    // s = J r^3 / 6 from the resting end, J = 6 h / T^3.
    const double J = 6 * h / (T * T * T);
    const bool from_rest = v_[i] == 0;
    const double w = from_rest ? r : T - r;
    const double ds = J * w * w * w / 6, v = 0.5 * J * w * w, a = J * w;
    st.s = from_rest ? s_[i] + ds : s_[i + 1] - ds;
    st.sd = v;
    st.sdd = from_rest ? a : -a;
  } else {
    st.s = s_[i] + v_[i] * r + 0.5 * a_[i] * r * r;
    st.sd = v_[i] + a_[i] * r;
    st.sdd = a_[i];
  }
  st.s = std::clamp(st.s, s_[i], s_[i + 1]);
  st.sd /= scale_;
  st.sdd /= scale_ * scale_;
  return st;
}

std::vector<double> RefinedGrid(const PathTiming& timing, double max_interval_time, int max_nodes) {
  const std::vector<double>& s = timing.nodes();
  std::vector<double> out;
  out.reserve(s.size());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    out.push_back(s[i]);
    const double T = timing.IntervalTime(i);
    if (!(T > max_interval_time) || static_cast<int>(out.size()) >= max_nodes) continue;
    const double h = s[i + 1] - s[i];
    if (i == 0 || i + 2 == n) {
      // From rest T ~ h^(1/3): nodes at h / 2^k down to where T is small,
      // and no closer to the rest than kFinestEndNode (closer, sd^2 there
      // is below what a double resolves, and the sweeps read it as a stop).
      const int by_time = static_cast<int>(std::ceil(3 * std::log2(T / max_interval_time))) + 1;
      const int by_size = static_cast<int>(std::floor(std::log2(h / kFinestEndNode)));
      const int halvings = std::max(0, std::min({60, by_time, by_size}));
      for (int k = halvings; k >= 1; --k) {
        const double d = h * std::ldexp(1.0, -k);
        out.push_back(i == 0 ? s[i] + d : s[i + 1] - h + d);
      }
      if (i + 2 == n) {
        // Those nodes must crowd towards s[i + 1] instead.
        const std::size_t first = out.size() - static_cast<std::size_t>(halvings);
        for (std::size_t k = first; k < out.size(); ++k) out[k] = s[i] + s[i + 1] - out[k];
        std::sort(out.begin() + static_cast<long>(first), out.end());
      }
      continue;
    }
    const int parts = static_cast<int>(std::min(64.0, std::ceil(T / max_interval_time)));
    for (int k = 1; k < parts; ++k) out.push_back(s[i] + h * k / parts);
  }
  // Halvings towards an end finer than the spacing of doubles there round
  // onto it (1 - h / 2^60 is 1): such nodes are dropped, so that every
  // interval keeps a positive length and no node but the last is at the end.
  std::size_t kept = 0;
  for (double v : out) {
    if ((kept == 0 || v > out[kept - 1]) && v < s.back()) out[kept++] = v;
  }
  out.resize(kept);
  out.push_back(s.back());
  return out;
}

double PathTiming::SpeedSquaredAt(double s) const {
  const std::size_t n = x_.size();
  if (n < 2) return 0.0;
  s = std::clamp(s, 0.0, 1.0);
  std::size_t i = static_cast<std::size_t>(std::upper_bound(s_.begin(), s_.end(), s) - s_.begin());
  i = std::clamp<std::size_t>(i, 1, n - 1) - 1;
  const double u = (s - s_[i]) / (s_[i + 1] - s_[i]);
  return (1 - u) * x_[i] + u * x_[i + 1];
}

}  // namespace motion
