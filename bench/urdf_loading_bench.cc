// What loading a URDF costs, and what guarding against urdfdom costs on top:
// urdfdom's parse alone (the baseline, measured in the same run), the XML
// precheck that runs before it (TinyXML parse, every number, the link tree),
// and the whole RobotModel::FromUrdf (precheck + urdfdom + KDL tree + checks).
// Per bundled robot. Reports only.

#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>
#include <urdf_parser/urdf_parser.h>

#include "core/model/internal/urdf_xml_precheck.h"
#include "core/model/internal/urdfdom_logging.h"
#include "core/model/robot_model.h"

namespace {

std::string ReadRobot(const std::string& file) {
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void BM_UrdfdomParse(benchmark::State& state, const std::string& file) {
  const std::string urdf = ReadRobot(file);
  motion::DisableUrdfdomLogFormatting();
  for (auto _ : state) benchmark::DoNotOptimize(urdf::parseURDF(urdf));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * urdf.size()));
}

void BM_Precheck(benchmark::State& state, const std::string& file) {
  const std::string urdf = ReadRobot(file);
  for (auto _ : state) benchmark::DoNotOptimize(motion::PrecheckUrdfXml(urdf, {}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * urdf.size()));
}

void BM_RobotModelFromUrdf(benchmark::State& state, const std::string& file) {
  const std::string urdf = ReadRobot(file);
  for (auto _ : state) benchmark::DoNotOptimize(motion::RobotModel::FromUrdf(urdf));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * urdf.size()));
}

const int kRegistered = [] {
  for (const char* file :
       {"ur5.urdf", "panda.urdf", "iiwa14.urdf", "abb_irb2400.urdf", "fanuc_m10ia.urdf"}) {
    const std::string name = std::string(file).substr(0, std::string(file).size() - 5);
    benchmark::RegisterBenchmark(("urdfdom_parse/" + name).c_str(), BM_UrdfdomParse, file);
    benchmark::RegisterBenchmark(("precheck/" + name).c_str(), BM_Precheck, file);
    benchmark::RegisterBenchmark(("robot_model_from_urdf/" + name).c_str(), BM_RobotModelFromUrdf,
                                 file);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
