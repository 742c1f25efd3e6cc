#include "clients/motionctl/plan_plot_input.h"

#include <algorithm>
#include <cmath>

namespace motionctl {
namespace {

namespace v1 = motion::v1;

// "SEVERITY_ERROR" -> "ERROR".
std::string SeverityWord(v1::Severity severity) {
  const std::string name = v1::Severity_Name(severity);
  const std::string prefix = "SEVERITY_";
  return name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
}

}  // namespace

void PlanPlotCollector::Add(const v1::PlanPathResponse& m) {
  if (m.has_header()) {
    header_ = m.header();
    data_.sample_time = header_.sample_time();
  } else if (m.has_chunk()) {
    const v1::TrajectoryChunk& c = m.chunk();
    const std::size_t dof = static_cast<std::size_t>(std::max(header_.dof(), 0));
    // Only whole samples: a chunk short of values would shift every joint after it.
    std::size_t n = static_cast<std::size_t>(c.time_size());
    if (dof > 0) {
      n = std::min(
          {n, c.positions_size() / dof, c.velocities_size() / dof, c.accelerations_size() / dof});
    }
    data_.time.insert(data_.time.end(), c.time().begin(), c.time().begin() + n);
    data_.positions.insert(data_.positions.end(), c.positions().begin(),
                           c.positions().begin() + n * dof);
    data_.velocities.insert(data_.velocities.end(), c.velocities().begin(),
                            c.velocities().begin() + n * dof);
    data_.accelerations.insert(data_.accelerations.end(), c.accelerations().begin(),
                               c.accelerations().begin() + n * dof);
    tcp_complete_ = tcp_complete_ && static_cast<std::size_t>(c.tcp_size()) >= n;
    for (std::size_t k = 0; tcp_complete_ && k < n; ++k) {
      const v1::Vector3& p = c.tcp(static_cast<int>(k)).position();
      data_.tcp.insert(data_.tcp.end(), {p.x(), p.y(), p.z()});
    }
  } else if (m.has_segment_report()) {
    data_.segments.push_back({m.segment_report().segment_id(), m.segment_report().start_time()});
  } else if (m.has_summary()) {
    summary_ = m.summary();
  }
}

bool PlanPlotCollector::SetLimits(const v1::RobotInfo& info,
                                  const std::vector<v1::JointLimitOverride>& overrides,
                                  std::string* error) {
  robot_name_ = info.name();
  data_.joints.clear();
  for (const std::string& name : header_.joint_names()) {
    const auto it = std::find_if(info.joints().begin(), info.joints().end(),
                                 [&](const v1::JointInfo& j) { return j.name() == name; });
    if (it == info.joints().end()) {
      *error = "--plot: the plan's joint " + name + " is not in the chain " + info.base_link() +
               " -> " + info.tip_link() + " that GetRobot describes";
      return false;
    }
    PlotJoint joint{name,          it->bounded(),      it->lower(),
                    it->upper(),   it->max_velocity(), it->max_acceleration(),
                    it->max_jerk()};
    for (const v1::JointLimitOverride& o : overrides) {
      if (o.joint_name() != name) continue;
      const auto apply = [](double value, double* limit) {
        if (std::isfinite(value) && value > 0) *limit = value;
      };
      apply(o.max_velocity(), &joint.max_velocity);
      apply(o.max_acceleration(), &joint.max_acceleration);
      apply(o.max_jerk(), &joint.max_jerk);
    }
    data_.joints.push_back(joint);
  }
  return true;
}

PlanPlotData PlanPlotCollector::Finish(const std::string& title) {
  data_.title = robot_name_.empty() ? title : title + " on " + robot_name_;
  data_.ok = summary_.ok();
  data_.cycle_time = summary_.duration();
  if (!tcp_complete_ || data_.tcp.size() != data_.time.size() * 3) data_.tcp.clear();
  const std::size_t samples = data_.time.size();
  for (const v1::Diagnostic& d : summary_.diagnostics()) {
    PlotDiagnostic p;
    p.severity = SeverityWord(d.severity());
    p.code = v1::DiagnosticCode_Name(d.code());
    p.segment_id = d.segment_id();
    p.message = d.message();
    // Tied to a sample when it has an index. Diagnostic.time may be finer
    // than the sample's (a contact found between two samples), but may also
    // be left 0: then the sample's time.
    if (d.point_index() >= 0 && std::isfinite(d.time())) {
      const std::size_t k = static_cast<std::size_t>(d.point_index());
      p.has_time = true;
      p.time = d.time() != 0 || k == 0 || k >= samples ? d.time() : data_.time[k];
      if (k < samples && !data_.tcp.empty()) {
        p.has_tcp = true;
        std::copy_n(&data_.tcp[k * 3], 3, p.tcp);
      }
    }
    data_.diagnostics.push_back(p);
  }
  return data_;
}

}  // namespace motionctl
