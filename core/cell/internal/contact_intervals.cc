#include "core/cell/internal/contact_intervals.h"

#include <algorithm>
#include <tuple>

namespace motion {

std::vector<CellContact> PairContacts(
    std::vector<PairHit> hits, const std::vector<const CellRobotProgram*>& robots,
    const std::function<const std::string&(int robot, int link)>& link_name) {
  auto key = [](const PairHit& h) {
    return std::make_tuple(h.robot_a, h.robot_b, h.link_a, h.link_b);
  };
  std::sort(hits.begin(), hits.end(), [&](const PairHit& x, const PairHit& y) {
    return std::make_tuple(key(x), x.interval, x.time) <
           std::make_tuple(key(y), y.interval, y.time);
  });
  std::vector<CellContact> contacts;
  for (std::size_t k = 0; k < hits.size(); ++k) {
    const PairHit& h = hits[k];
    if (k > 0 && key(hits[k - 1]) == key(h) && h.interval <= hits[k - 1].interval + 1) {
      CellContact& c = contacts.back();
      c.start_time = std::min(c.start_time, h.time);
      c.end_time = std::max(c.end_time, h.time);
      c.depth = std::max(c.depth, h.depth);
      continue;
    }
    CellContact c;
    c.robot_a = robots[h.robot_a]->name;
    c.link_a = link_name(h.robot_a, h.link_a);
    c.robot_b = robots[h.robot_b]->name;
    c.other = link_name(h.robot_b, h.link_b);
    c.start_time = c.end_time = h.time;
    c.depth = h.depth;
    contacts.push_back(std::move(c));
  }
  return contacts;
}

CellContact RobotContact(const CellRobotProgram& robot, const TrajectoryContact& c, bool self,
                         double cell_end) {
  CellContact out;
  out.robot_a = robot.name;
  out.link_a = c.link;
  out.robot_b = self ? robot.name : "";
  out.other = c.other;
  out.start_time = robot.start_time + c.start_time;
  out.end_time = robot.start_time + c.end_time;
  out.depth = c.max_depth;
  if (!c.between_samples_only && c.first_sample == 0) out.start_time = 0.0;
  if (!c.between_samples_only && c.last_sample + 1 == robot.times.size()) out.end_time = cell_end;
  return out;
}

}  // namespace motion
