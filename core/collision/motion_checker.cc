#include "core/collision/motion_checker.h"

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
    if (&kept[next].probe == keep) next = 1 - next;
    Kept& k = kept[next];
    next = 1 - next;
    k.q = q;
    prober.At(q, kProbeThreshold, k.probe);
    k.valid = true;
    ++probes;
    return k.probe;
  }

  struct Kept {
    Eigen::VectorXd q;
    Probe probe;
    bool valid = false;
  };
  Prober prober;
  bool has_geometry;
  Kept kept[2];
  int next = 0;
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
  return WalkMotion(impl_->prober, qa, qb, 0.0, 1.0, a, b, [&](const Probe& middle, double) {
    ++probes_;
    return middle.contacts.empty();
  });
}

bool MotionIsClear(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
                   const CollisionScene& scene, const Eigen::VectorXd& qa,
                   const Eigen::VectorXd& qb, const TrajectoryCollisionOptions& options) {
  MotionChecker checker(chain, data, robot, scene, options);
  return checker.MotionIsClear(qa, qb);
}

}  // namespace motion
