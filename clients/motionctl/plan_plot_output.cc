#include "clients/motionctl/plan_plot_output.h"

#include "clients/motionctl/output.h"
#include "clients/motionctl/plan_plot.h"
#include "clients/motionctl/png_writer.h"

namespace motionctl {

namespace v1 = motion::v1;

PlanPlotOutput::~PlanPlotOutput() {
  if (file_) std::fclose(file_);
}

bool PlanPlotOutput::Open(const CommandLine& cli) {
  if (!cli.Has("plot")) return true;
  const std::string path = cli.Flag("plot");
  // A bare --plot at the end reads as "true", before another flag as that
  // flag: neither is a file anyone meant.
  if (path.empty() || path == "true" || path.rfind("--", 0) == 0) {
    std::fprintf(stderr, "motionctl: --plot needs a file name (--plot=FILE.png)\n");
    return false;
  }
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) return std::fprintf(stderr, "motionctl: cannot write %s\n", path.c_str()), false;
  path_ = path;
  return true;
}

void PlanPlotOutput::Discard() {
  if (!file_) return;
  std::fclose(file_);
  file_ = nullptr;
  std::remove(path_.c_str());
}

int PlanPlotOutput::Write(motion::client::MotionClient& client,
                          const std::vector<v1::JointLimitOverride>& overrides,
                          const std::string& title) {
  if (!file_) return 0;
  v1::GetRobotRequest get;
  get.set_robot_id(collector_.header().robot_id());
  get.set_base_link(collector_.header().base_link());
  get.set_tip_link(collector_.header().tip_link());
  v1::RobotInfo info;
  const grpc::Status status = client.GetRobot(get, &info);
  if (!status.ok()) {
    Discard();
    return ReportRpcError("GetRobot (the limits --plot draws)", status);
  }
  std::string error;
  if (!collector_.SetLimits(info, overrides, &error)) {
    std::fprintf(stderr, "motionctl: %s\n", error.c_str());
    return Discard(), 1;
  }
  std::string png;
  if (!EncodePng(RenderPlanPlot(collector_.Finish(title)), &png, &error)) {
    std::fprintf(stderr, "motionctl: %s\n", error.c_str());
    return Discard(), 1;
  }
  const bool written = std::fwrite(png.data(), 1, png.size(), file_) == png.size();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!written || !closed) {
    std::fprintf(stderr, "motionctl: cannot write %s\n", path_.c_str());
    std::remove(path_.c_str());
    return 1;
  }
  return 0;
}

}  // namespace motionctl
