#include "core/cell/internal/cell_sweep.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/cell/internal/cell_timeline.h"

namespace motion {
namespace {

constexpr int kMaxDepth = 24;  // halvings of one interval, as for one robot
// Exact distances below this at the instants (a generous guess of one
// interval's motion; halvings use their interval's own bound).
constexpr double kThreshold = 0.05;

double BoxGap(const Eigen::AlignedBox3d& a, const Eigen::AlignedBox3d& b) {
  return (a.min() - b.max()).cwiseMax(b.min() - a.max()).cwiseMax(0.0).norm();
}

}  // namespace

struct CellSweep::Point {
  // At an instant: into the robots' window caches; a halving: its own.
  const Eigen::VectorXd* qa = nullptr;
  const Eigen::VectorXd* qb = nullptr;
  const RobotSnapshot* sa = nullptr;
  const RobotSnapshot* sb = nullptr;
  Eigen::VectorXd own_qa, own_qb;
  RobotSnapshot own_sa, own_sb;
  std::vector<double> distances;  ///< LinkPairDistances of sa, sb
  std::vector<LinkPairContact> contacts;
  double nearest = 0.0;
  bool contact = false;
};

struct CellSweep::RobotWindow {
  std::size_t window = std::string::npos;
  std::size_t first = 0;
  std::vector<Eigen::VectorXd> q;     ///< per instant of the window
  std::vector<RobotSnapshot> placed;  ///< the distinct placements
  std::vector<int> snapshot;          ///< per instant, its placement (held: the last one)
  const RobotSnapshot& At(std::size_t k) const { return placed[snapshot[k]]; }
};

CellSweep::CellSweep(const std::vector<const CellRobotProgram*>& robots,
                     const std::vector<double>& start_times, const CellOptions& options)
    : robots_(robots),
      starts_(start_times),
      options_(options),
      instants_(CellInstants(robots, start_times)),
      bounds_a_(kMaxDepth + 1),
      bounds_b_(kMaxDepth + 1) {
  const std::size_t w = static_cast<std::size_t>(std::max(options.window, 1));
  windows_ = std::max<std::size_t>(1, (instants_.size() - 1 + w - 1) / w);
  for (const CellRobotProgram* r : robots_) {
    data_.push_back(std::make_unique<ChainData>(*r->chain));
    placers_.push_back(
        std::make_unique<RobotPlacer>(*r->chain, *data_.back(), *r->collision, r->X_CB));
  }
  for (int k = 0; k < kMaxDepth + 2; ++k) points_.push_back(std::make_unique<Point>());
  for (std::size_t r = 0; r < robots_.size(); ++r) {
    windows_of_.push_back(std::make_unique<RobotWindow>());
  }
  if (options.record_clearance) {
    instant_min_.assign(instants_.size(), std::numeric_limits<double>::infinity());
  }
}

CellSweep::~CellSweep() = default;

bool CellSweep::SweepRobots(const CollisionScene* scene, const std::function<bool()>& cancelled) {
  const std::size_t w = static_cast<std::size_t>(std::max(options_.window, 1));
  const bool with_scene = scene && !scene->objects().empty();
  boxes_.assign(robots_.size(), std::vector<Eigen::AlignedBox3d>(windows_));
  link_bounds_.assign(robots_.size(), {});
  std::vector<double> bounds;
  for (std::size_t r = 0; r < robots_.size(); ++r) {
    RobotSnapshot prev, cur;
    Eigen::VectorXd q_prev, q_cur;
    std::vector<double> inflate(windows_, 0.0);
    std::vector<Eigen::AlignedBox3d>& boxes = boxes_[r];
    const std::size_t links = static_cast<std::size_t>(placers_[r]->link_count());
    std::vector<double>& stored = link_bounds_[r];
    stored.assign(links * std::max<std::size_t>(instants_.size(), 1), 0.0);
    for (Eigen::AlignedBox3d& b : boxes) b.setEmpty();
    double scene_distance = std::numeric_limits<double>::infinity();
    for (std::size_t e = 0; e < instants_.size(); ++e) {
      if (e % 256 == 0 && cancelled && cancelled()) return false;
      JointsAt(*robots_[r], starts_[r], instants_[e], q_cur);
      if (e > 0 && q_cur == q_prev) {
        // Held still (before its start, after its end, in a fine stop):
        // the same snapshot, nothing moves.
        if (!instant_min_.empty()) instant_min_[e] = std::min(instant_min_[e], scene_distance);
        for (std::size_t win : {(e - 1) / w, std::min(e / w, windows_ - 1)}) {
          boxes[win].extend(prev.box());
        }
        continue;
      }
      placers_[r]->Place(q_cur, cur);
      if (with_scene) {
        scene_distance = SceneDistance(cur, *scene);
        min_scene_ = std::min(min_scene_, scene_distance);
        if (!instant_min_.empty()) instant_min_[e] = std::min(instant_min_[e], scene_distance);
      }
      // Instant e ends window (e - 1) / w and starts window e / w.
      for (std::size_t win : {e == 0 ? 0 : (e - 1) / w, std::min(e / w, windows_ - 1)}) {
        boxes[win].extend(cur.box());
      }
      if (e > 0) {
        const double moved = placers_[r]->LinkMotionBounds(q_prev, q_cur, prev, cur, bounds);
        std::copy(bounds.begin(), bounds.end(), stored.begin() + (e - 1) * links);
        double& i = inflate[(e - 1) / w];
        i = std::max(i, moved);
      }
      std::swap(prev, cur);
      std::swap(q_prev, q_cur);
    }
    for (std::size_t win = 0; win < windows_; ++win) {
      if (boxes[win].isEmpty()) continue;
      const Eigen::Vector3d grow = Eigen::Vector3d::Constant(inflate[win]);
      boxes[win] = Eigen::AlignedBox3d(boxes[win].min() - grow, boxes[win].max() + grow);
    }
  }
  return true;
}

bool CellSweep::CheckPairs(const std::vector<std::pair<int, int>>& pairs, bool stop_at_first,
                           const std::function<bool()>& cancelled) {
  std::vector<std::tuple<double, int, int, std::size_t>> order;
  for (const auto& [a, b] : pairs) {
    for (std::size_t win = 0; win < windows_; ++win) {
      const Eigen::AlignedBox3d& ba = boxes_[a][win];
      const Eigen::AlignedBox3d& bb = boxes_[b][win];
      if (ba.isEmpty() || bb.isEmpty()) continue;
      order.emplace_back(BoxGap(ba, bb), a, b, win);
    }
  }
  // Windows that may hold a contact first, window by window (their robots
  // are placed once for all their pairs), then the others nearest first,
  // until none can be nearer than what was found.
  const double margin = options_.safety_margin;
  std::sort(order.begin(), order.end(), [margin](const auto& x, const auto& y) {
    const bool must_x = std::get<0>(x) <= margin, must_y = std::get<0>(y) <= margin;
    if (must_x != must_y) return must_x;
    if (must_x) {
      return std::make_tuple(std::get<3>(x), std::get<1>(x), std::get<2>(x)) <
             std::make_tuple(std::get<3>(y), std::get<1>(y), std::get<2>(y));
    }
    return x < y;
  });
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& [gap, a, b, win] = order[k];
    if (gap > margin && gap >= min_robot_ && instant_min_.empty()) break;
    if (cancelled && cancelled()) return false;
    if (!CheckWindow(a, b, win, stop_at_first)) return false;
  }
  return true;
}

const CellSweep::RobotWindow& CellSweep::WindowOf(int r, std::size_t window) {
  RobotWindow& cache = *windows_of_[r];
  if (cache.window == window) return cache;
  const std::size_t w = static_cast<std::size_t>(std::max(options_.window, 1));
  cache.window = window;
  cache.first = window * w;
  const std::size_t last = std::min(cache.first + w, instants_.size() - 1);
  const std::size_t n = last - cache.first + 1;
  cache.q.resize(n);
  cache.snapshot.resize(n);
  if (cache.placed.size() < n) cache.placed.resize(n);
  int used = 0;
  for (std::size_t k = 0; k < n; ++k) {
    JointsAt(*robots_[r], starts_[r], instants_[cache.first + k], cache.q[k]);
    if (k > 0 && cache.q[k] == cache.q[k - 1]) {
      cache.snapshot[k] = cache.snapshot[k - 1];
      continue;
    }
    placers_[r]->Place(cache.q[k], cache.placed[used]);
    cache.snapshot[k] = used++;
  }
  return cache;
}

void CellSweep::Measure(int a, int b, std::size_t interval, std::size_t instant, double time,
                        Point& p) {
  // Exact where this interval's motion could matter; beyond, box gaps.
  p.nearest =
      LinkPairDistances(*p.sa, *p.sb, options_.safety_margin, kThreshold, p.distances, p.contacts);
  p.contact = !p.contacts.empty();
  Record(a, b, interval, instant, time, p);
}

void CellSweep::Record(int a, int b, std::size_t interval, std::size_t instant, double time,
                       const Point& p) {
  min_robot_ = std::min(min_robot_, p.nearest);
  if (instant != std::string::npos && !instant_min_.empty()) {
    instant_min_[instant] = std::min(instant_min_[instant], p.nearest);
  }
  for (const LinkPairContact& c : p.contacts) {
    hits_.push_back({a, b, c.link_a, c.link_b, interval, time, c.depth});
  }
}

bool CellSweep::CheckWindow(int a, int b, std::size_t window, bool stop_at_first) {
  const RobotWindow& A = WindowOf(a, window);
  const RobotWindow& B = WindowOf(b, window);
  const std::size_t first = A.first;
  const std::size_t la = static_cast<std::size_t>(placers_[a]->link_count());
  const std::size_t lb = static_cast<std::size_t>(placers_[b]->link_count());
  auto bind = [&](Point& p, std::size_t k) {
    p.qa = &A.q[k];
    p.qb = &B.q[k];
    p.sa = &A.At(k);
    p.sb = &B.At(k);
  };
  Point* p0 = points_[0].get();
  Point* p1 = points_[1].get();
  bind(*p0, 0);
  Measure(a, b, first, first, instants_[first], *p0);
  if (stop_at_first && p0->contact) return false;
  for (std::size_t k = 0; k + 1 < A.q.size(); ++k) {
    const std::size_t e = first + k;
    if (A.snapshot[k + 1] == A.snapshot[k] && B.snapshot[k + 1] == B.snapshot[k]) {
      // Both held still: what was measured at the instant before holds.
      Record(a, b, e + 1, e + 1, instants_[e + 1], *p0);
      continue;
    }
    bind(*p1, k + 1);
    Measure(a, b, e + 1, e + 1, instants_[e + 1], *p1);
    if (stop_at_first && p1->contact) return false;
    if (!Walk(a, b, *p0, *p1, instants_[e], instants_[e + 1], e, 0, stop_at_first,
              link_bounds_[a].data() + e * la, link_bounds_[b].data() + e * lb)) {
      return false;
    }
    std::swap(p0, p1);
  }
  return true;
}

bool CellSweep::Walk(int a, int b, const Point& p0, const Point& p1, double t0, double t1,
                     std::size_t interval, int depth, bool stop_at_first, const double* bound_a,
                     const double* bound_b) {
  // Both robots move: a link pair's distance shrinks at most by the sum of
  // their bounds, so clearances (distance less margin) c0 + c1 above it
  // clear the interval.
  std::vector<double>& ba = bounds_a_[depth];
  std::vector<double>& bb = bounds_b_[depth];
  double moved = 0.0;
  if (bound_a && bound_b) {
    // The sweep's, over the same instants.
    ba.assign(bound_a, bound_a + placers_[a]->link_count());
    bb.assign(bound_b, bound_b + placers_[b]->link_count());
    for (double x : ba) moved = std::max(moved, x);
    double moved_b = 0.0;
    for (double x : bb) moved_b = std::max(moved_b, x);
    moved += moved_b;
  } else {
    moved = placers_[a]->LinkMotionBounds(*p0.qa, *p1.qa, *p0.sa, *p1.sa, ba) +
            placers_[b]->LinkMotionBounds(*p0.qb, *p1.qb, *p0.sb, *p1.sb, bb);
  }
  const std::size_t nb = bb.size();
  const double m2 = 2.0 * options_.safety_margin;
  bool clear = true;
  for (std::size_t i = 0; i < ba.size() && clear; ++i) {
    for (std::size_t j = 0; j < nb; ++j) {
      const double d0 = p0.distances[i * nb + j], d1 = p1.distances[i * nb + j];
      if (std::isinf(d0) || std::isinf(d1)) continue;  // a link without shapes
      if (!(d0 + d1 - m2 > ba[i] + bb[j])) {
        clear = false;
        break;
      }
    }
  }
  if (clear || moved < options_.resolution || depth >= kMaxDepth) return true;
  // Both ends in contact and little motion: the contact is recorded there.
  if (p0.contact && p1.contact && moved < 1e-2) return true;
  Point& m = *points_[2 + depth];
  m.own_qa = 0.5 * (*p0.qa + *p1.qa);
  m.own_qb = 0.5 * (*p0.qb + *p1.qb);
  placers_[a]->Place(m.own_qa, m.own_sa);
  placers_[b]->Place(m.own_qb, m.own_sb);
  m.qa = &m.own_qa;
  m.qb = &m.own_qb;
  m.sa = &m.own_sa;
  m.sb = &m.own_sb;
  const double tm = 0.5 * (t0 + t1);
  Measure(a, b, interval, std::string::npos, tm, m);
  if (stop_at_first && m.contact) return false;
  return Walk(a, b, p0, m, t0, tm, interval, depth + 1, stop_at_first, nullptr, nullptr) &&
         Walk(a, b, m, p1, tm, t1, interval, depth + 1, stop_at_first, nullptr, nullptr);
}

}  // namespace motion
