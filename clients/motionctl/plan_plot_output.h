#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"
#include "clients/motionctl/plan_plot_input.h"

namespace motionctl {

/// \brief `plan --plot=FILE.png`: the file is opened before planning (an
/// unwritable path costs no plan), the stream is collected while it
/// arrives, and the picture is written once it ended.
class PlanPlotOutput {
 public:
  PlanPlotOutput() = default;
  PlanPlotOutput(const PlanPlotOutput&) = delete;
  PlanPlotOutput& operator=(const PlanPlotOutput&) = delete;
  ~PlanPlotOutput();

  /// \brief Opens --plot's file, when the flag is there. False with a
  /// message on stderr when it names no file or the file cannot be written.
  bool Open(const CommandLine& cli);
  bool enabled() const { return !path_.empty(); }  ///< --plot given and its file opened
  const std::string& path() const { return path_; }

  void Add(const motion::v1::PlanPathResponse& message) {
    if (file_) collector_.Add(message);
  }

  /// \brief Fetches the limits of the plan's chain (GetRobot for the
  /// header's robot and chain, then `overrides`: the request's joint
  /// limits), draws the picture and writes it. `title` names the program.
  /// Returns the exit code: 0 written, 1 not drawable or not written, 2
  /// GetRobot failed; with a message on stderr, the file then removed.
  int Write(motion::client::MotionClient& client,
            const std::vector<motion::v1::JointLimitOverride>& overrides, const std::string& title);

  /// \brief Removes the file, for a plan that produced nothing to draw.
  void Discard();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  PlanPlotCollector collector_;
};

}  // namespace motionctl
