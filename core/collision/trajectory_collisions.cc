#include "core/collision/trajectory_collisions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "core/collision/internal/motion_probe.h"

namespace motion {
namespace {

// Contacts per pair, merged over contiguous samples.
class Merger {
 public:
  void Add(const ProbeContact& f, std::size_t sample, double time, bool at_sample) {
    auto key = std::make_pair(f.link, f.other);
    auto it = open_.find(key);
    if (it != open_.end()) {
      TrajectoryContact& c = contacts_[it->second];
      if (sample <= c.last_sample + 1) {
        c.last_sample = std::max(c.last_sample, sample);
        c.end_time = std::max(c.end_time, time);
        c.start_time = std::min(c.start_time, time);
        c.max_depth = std::max(c.max_depth, f.depth);
        c.between_samples_only = c.between_samples_only && !at_sample;
        return;
      }
    }
    TrajectoryContact c;
    c.link = f.link;
    c.other = f.other;
    c.first_sample = c.last_sample = sample;
    c.start_time = c.end_time = time;
    c.max_depth = f.depth;
    c.between_samples_only = !at_sample;
    open_[key] = contacts_.size();
    contacts_.push_back(std::move(c));
  }
  std::vector<TrajectoryContact> Take() { return std::move(contacts_); }

 private:
  std::map<std::pair<std::string, std::string>, std::size_t> open_;
  std::vector<TrajectoryContact> contacts_;
};

}  // namespace

std::vector<TrajectoryContact> FindTrajectoryCollisions(const ChainModel& chain, ChainData& data,
                                                        const RobotCollisionModel& robot,
                                                        const CollisionScene& scene,
                                                        const std::vector<double>& times,
                                                        const std::vector<double>& positions,
                                                        const TrajectoryCollisionOptions& options,
                                                        const std::function<bool()>& cancelled) {
  Merger merger;
  const int dof = chain.dof();
  const std::size_t n = times.size();
  auto position = [&](std::size_t k) {
    return Eigen::Map<const Eigen::VectorXd>(positions.data() + k * dof, dof);
  };
  if (n == 0 || !robot.has_geometry()) return {};
  Prober prober(chain, data, robot, scene, options);
  Eigen::VectorXd qa = position(0);
  Probe a = prober.At(qa, kProbeThreshold);
  for (const ProbeContact& f : a.contacts) merger.Add(f, 0, times[0], true);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (k % 64 == 0 && cancelled && cancelled()) break;
    const Eigen::VectorXd qb = position(k + 1);
    Probe b = prober.At(qb, kProbeThreshold);
    for (const ProbeContact& f : b.contacts) merger.Add(f, k + 1, times[k + 1], true);
    // Every contact between the samples, so the walk is never stopped.
    WalkMotion(prober, qa, qb, times[k], times[k + 1], a, b, [&](const Probe& m, double tm) {
      for (const ProbeContact& f : m.contacts) merger.Add(f, k, tm, false);
      return true;
    });
    qa = qb;
    a = std::move(b);
  }
  return merger.Take();
}

}  // namespace motion
