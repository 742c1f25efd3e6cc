#include "core/collision/motion_checker.h"

#include <algorithm>
#include <utility>

#include "core/collision/internal/motion_probe.h"

namespace motion {

struct MotionChecker::Impl {
  Impl(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
       const CollisionScene& scene, const TrajectoryCollisionOptions& options)
      : prober(chain, data, robot, scene, options), has_geometry(robot.has_geometry()) {}

  // The probe at q at the ends' threshold, from the two kept ones when q is
  // one of them (bit for bit: the probe is a function of q alone). A new
  // probe replaces the older one, never `keep`.
  const Probe& End(const Eigen::VectorXd& q, std::int64_t& probes, const Probe* keep = nullptr) {
    for (Kept& k : kept) {
      if (k.valid && k.q.size() == q.size() && k.q == q) return k.probe;
    }
    if (&kept[next_kept].probe == keep) next_kept = 1 - next_kept;
    Kept& k = kept[next_kept];
    next_kept = 1 - next_kept;
    k.q = q;
    prober.At(q, kProbeThreshold, k.probe);
    k.valid = true;
    ++probes;
    return k.probe;
  }

  // Whether qa..qb (clear ends a, b) is clear: the same intervals as one
  // WalkMotion, but the first kBreadthLevels levels of halvings probed
  // breadth first. A motion into an obstacle is then refused after a few
  // coarse probes instead of after the fine walk of everything before the
  // obstacle; a clear one costs the same probes, the verdict is the same.
  bool Clear(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb, const Probe& a, const Probe& b,
             std::int64_t& probes) {
    constexpr int kPoints = (1 << kBreadthLevels) + 1;
    const Eigen::VectorXd* q[kPoints];
    const Probe* p[kPoints];
    q[0] = &qa;
    p[0] = &a;
    q[kPoints - 1] = &qb;
    p[kPoints - 1] = &b;
    if (static_cast<int>(points.size()) < kPoints) points.resize(kPoints);
    // Intervals as point indices, in motion order.
    intervals.assign(1, {0, kPoints - 1});
    for (int depth = 0; depth < kBreadthLevels && !intervals.empty(); ++depth) {
      next.clear();
      for (const auto& [lo, hi] : intervals) {
        const double bound = prober.MotionBound(*q[lo], *q[hi], *p[lo], *p[hi]);
        if (!NeedsMiddle(prober, *p[lo], *p[hi], bound, depth)) continue;
        const int mid = (lo + hi) / 2;
        Prober::Middle& m = points[mid];
        m.q = 0.5 * (*q[lo] + *q[hi]);
        prober.At(m.q, std::max(kProbeThreshold, bound), m.probe);
        ++probes;
        if (!m.probe.contacts.empty()) return false;
        q[mid] = &m.q;
        p[mid] = &m.probe;
        next.push_back({lo, mid});
        next.push_back({mid, hi});
      }
      std::swap(intervals, next);
    }
    for (const auto& [lo, hi] : intervals) {
      const bool clear = WalkMotion(
          prober, *q[lo], *q[hi], 0.0, 1.0, *p[lo], *p[hi],
          [&](const Probe& middle, double) {
            ++probes;
            return middle.contacts.empty();
          },
          kBreadthLevels);
      if (!clear) return false;
    }
    return true;
  }

  static constexpr int kBreadthLevels = 4;
  struct Kept {
    Eigen::VectorXd q;
    Probe probe;
    bool valid = false;
  };
  Prober prober;
  bool has_geometry;
  Kept kept[2];
  int next_kept = 0;
  std::vector<Prober::Middle> points;  ///< Clear()'s probes, by position
  std::vector<std::pair<int, int>> intervals, next;
};

MotionChecker::MotionChecker(const ChainModel& chain, ChainData& data,
                             const RobotCollisionModel& robot, const CollisionScene& scene,
                             const TrajectoryCollisionOptions& options)
    : impl_(std::make_unique<Impl>(chain, data, robot, scene, options)) {}

MotionChecker::~MotionChecker() = default;

std::vector<Contact> MotionChecker::ContactsAt(const Eigen::VectorXd& q) {
  std::vector<Contact> contacts;
  if (!impl_->has_geometry) return contacts;
  for (const ProbeContact& c : impl_->End(q, probes_).contacts) {
    contacts.push_back({c.link, c.other, c.depth});
  }
  return contacts;
}

bool MotionChecker::ConfigurationIsClear(const Eigen::VectorXd& q) {
  return !impl_->has_geometry || impl_->End(q, probes_).contacts.empty();
}

bool MotionChecker::MotionIsClear(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb) {
  ++motions_;
  if (!impl_->has_geometry) return true;
  const Probe& a = impl_->End(qa, probes_);
  if (!a.contacts.empty()) return false;
  const Probe& b = impl_->End(qb, probes_, &a);
  if (!b.contacts.empty()) return false;
  return impl_->Clear(qa, qb, a, b, probes_);
}

bool MotionIsClear(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
                   const CollisionScene& scene, const Eigen::VectorXd& qa,
                   const Eigen::VectorXd& qb, const TrajectoryCollisionOptions& options) {
  MotionChecker checker(chain, data, robot, scene, options);
  return checker.MotionIsClear(qa, qb);
}

}  // namespace motion
