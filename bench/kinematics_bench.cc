// Kinematics benchmarks: motiond's forward kinematics and Jacobian against
// KDL's recursive solvers, on the default chain of every bundled robot.
//
// Both sides run on the same chain (ChainModel::kdl_chain is the chain
// motiond's own model was built from) and cycle through the same fixed pool
// of random joint vectors within limits. Before anything is timed, every
// vector of the pool is checked: motiond and KDL must agree to 1e-9 on the
// tip pose, every link pose and the Jacobian, or the program stops and names
// the robot and q. A benchmark of wrong answers is worthless.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/frames.hpp>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>

#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/model/chain_model.h"
#include "core/model/robot_model.h"

namespace {

// A power of two, so the benchmarks cycle through the pool with a mask. Large
// enough that branch predictors cannot learn one configuration, small enough
// (~50-60 KiB of q per robot) to stay in L2 for both sides alike.
constexpr std::size_t kPoolSize = 1024;
constexpr std::size_t kPoolMask = kPoolSize - 1;
constexpr std::uint64_t kSeed = 0x6d6f74696f6e64;  // "motiond": fixed, so runs compare
constexpr double kAgreementTolerance = 1e-9;       // m and rad (rotation matrix entries)
constexpr double kPi = 3.14159265358979323846;

/// One robot's default chain, its joint-vector pool in both libraries'
/// types, and Jacobians of that pool (inputs of the MeasureJacobian bench).
struct RobotBench {
  std::string name;  ///< file name without ".urdf"
  std::shared_ptr<const motion::RobotModel> robot;
  std::shared_ptr<const motion::ChainModel> chain;
  bool kdl_comparable = false;  ///< false when the chain has mimic joints
  std::vector<Eigen::VectorXd> q_pool;
  std::vector<KDL::JntArray> kdl_q_pool;
  std::vector<motion::Jacobian> jacobian_pool;
};

std::string FormatQ(const Eigen::VectorXd& q) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}

std::string FormatPose(const Eigen::Isometry3d& pose) {
  std::ostringstream out;
  out.precision(17);
  out << "p = " << pose.translation().transpose() << "\n      R = [" << pose.linear().row(0) << "; "
      << pose.linear().row(1) << "; " << pose.linear().row(2) << "]";
  return out.str();
}

Eigen::Isometry3d ToEigen(const KDL::Frame& frame) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  for (int r = 0; r < 3; ++r) {
    out.translation()[r] = frame.p(r);
    for (int c = 0; c < 3; ++c) out.linear()(r, c) = frame.M(r, c);
  }
  return out;
}

/// Largest absolute difference of positions (m) and rotation-matrix entries.
double PoseDifference(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b) {
  return std::max((a.translation() - b.translation()).cwiseAbs().maxCoeff(),
                  (a.linear() - b.linear()).cwiseAbs().maxCoeff());
}

std::string Sci(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

bool Fail(const std::string& message) {
  std::fprintf(stderr, "kinematics_bench: %s\n", message.c_str());
  return false;
}

/// Random joint vectors uniformly within limits; continuous joints (no
/// limits) in [-pi, pi]. One generator per robot, seeded from the robot name,
/// so adding a robot does not change another robot's inputs.
void FillPool(RobotBench& rb) {
  std::seed_seq seed{kSeed, static_cast<std::uint64_t>(std::hash<std::string>{}(rb.name))};
  std::mt19937_64 rng(seed);
  const motion::ChainModel& chain = *rb.chain;
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    Eigen::VectorXd q(chain.dof());
    for (int j = 0; j < chain.dof(); ++j) {
      const motion::JointLimits& limits = chain.dof_limits[j];
      const double lower = limits.bounded ? limits.lower : -kPi;
      const double upper = limits.bounded ? limits.upper : kPi;
      q[j] = std::uniform_real_distribution<double>(lower, upper)(rng);
    }
    KDL::JntArray kdl_q(chain.dof());
    kdl_q.data = q;
    rb.q_pool.push_back(std::move(q));
    rb.kdl_q_pool.push_back(std::move(kdl_q));
  }
}

bool LoadRobot(const std::filesystem::path& file, RobotBench& rb) {
  rb.name = file.stem().string();
  std::ifstream in(file, std::ios::binary);
  if (!in.is_open()) return Fail("cannot open " + file.string());
  std::stringstream text;
  text << in.rdbuf();

  auto robot = motion::RobotModel::FromUrdf(text.str());
  if (!robot.ok()) return Fail(rb.name + ": " + std::string(robot.status().message()));
  rb.robot = *robot;
  auto chain = rb.robot->Chain();
  if (!chain.ok()) return Fail(rb.name + ": " + std::string(chain.status().message()));
  rb.chain = *chain;
  rb.kdl_comparable = rb.chain->mimics.empty();
  if (rb.kdl_comparable &&
      static_cast<int>(rb.chain->kdl_chain.getNrOfJoints()) != rb.chain->dof()) {
    return Fail(rb.name + ": KDL chain has " + std::to_string(rb.chain->kdl_chain.getNrOfJoints()) +
                " joints, motiond " + std::to_string(rb.chain->dof()) + " DOF");
  }
  FillPool(rb);
  return true;
}

/// Checks motiond against KDL on every q of the pool (tip pose, every link
/// pose, Jacobian) and fills the Jacobian pool. Prints the worst differences.
bool VerifyAgainstKdl(RobotBench& rb) {
  const motion::ChainModel& chain = *rb.chain;
  motion::ChainData data(chain);
  KDL::ChainFkSolverPos_recursive kdl_fk(chain.kdl_chain);
  KDL::ChainJntToJacSolver kdl_jac(chain.kdl_chain);
  KDL::Frame kdl_tip;
  std::vector<KDL::Frame> kdl_links(chain.kdl_chain.getNrOfSegments());
  KDL::Jacobian kdl_jacobian(chain.kdl_chain.getNrOfJoints());
  double worst_fk = 0.0, worst_links = 0.0, worst_jacobian = 0.0;

  for (std::size_t i = 0; i < kPoolSize; ++i) {
    const Eigen::VectorXd& q = rb.q_pool[i];
    const std::string where = rb.name + " (" + chain.base_link + " -> " + chain.tip_link +
                              "), pool index " + std::to_string(i) + ", q = " + FormatQ(q);
    const Eigen::Isometry3d tip = motion::ForwardKinematics(chain, data, q);
    const std::vector<motion::LinkPose> links = motion::LinkPoses(chain, data);
    motion::Jacobian jacobian;
    motion::ComputeJacobian(chain, data, q, Eigen::Isometry3d::Identity(), jacobian);
    if (!tip.matrix().allFinite() || !jacobian.allFinite()) {
      return Fail("non-finite motiond result for " + where);
    }
    rb.jacobian_pool.push_back(jacobian);
    if (!rb.kdl_comparable) continue;

    if (kdl_fk.JntToCart(rb.kdl_q_pool[i], kdl_tip) < 0) {
      return Fail("KDL JntToCart failed for " + where);
    }
    const Eigen::Isometry3d kdl_pose = ToEigen(kdl_tip);
    const double fk_difference = PoseDifference(tip, kdl_pose);
    worst_fk = std::max(worst_fk, fk_difference);
    if (!(fk_difference <= kAgreementTolerance)) {
      return Fail("motiond and KDL FK disagree by " + Sci(fk_difference) + " on " + where +
                  "\n  motiond " + FormatPose(tip) + "\n  KDL     " + FormatPose(kdl_pose));
    }

    // motiond lists the base link first, then one link per KDL segment.
    if (kdl_fk.JntToCart(rb.kdl_q_pool[i], kdl_links) < 0 || links.size() != kdl_links.size() + 1) {
      return Fail("KDL all-links JntToCart failed or link counts differ (motiond " +
                  std::to_string(links.size()) + ", KDL " + std::to_string(kdl_links.size()) +
                  " + base) for " + where);
    }
    for (std::size_t k = 0; k < kdl_links.size(); ++k) {
      const double d = PoseDifference(links[k + 1].pose, ToEigen(kdl_links[k]));
      worst_links = std::max(worst_links, d);
      if (!(d <= kAgreementTolerance)) {
        return Fail("motiond and KDL disagree by " + Sci(d) + " on link '" + links[k + 1].link +
                    "' for " + where);
      }
    }

    if (kdl_jac.JntToJac(rb.kdl_q_pool[i], kdl_jacobian) < 0) {
      return Fail("KDL JntToJac failed for " + where);
    }
    const double jacobian_difference = (jacobian - kdl_jacobian.data).cwiseAbs().maxCoeff();
    worst_jacobian = std::max(worst_jacobian, jacobian_difference);
    if (!(jacobian_difference <= kAgreementTolerance)) {
      std::ostringstream both;
      both.precision(17);
      both << "\n  motiond J =\n" << jacobian << "\n  KDL J =\n" << kdl_jacobian.data;
      return Fail("motiond and KDL Jacobians disagree by " + Sci(jacobian_difference) + " on " +
                  where + both.str());
    }
  }
  if (rb.kdl_comparable) {
    std::fprintf(stderr,
                 "verified %-18s %d DOF, %u KDL segments, %zu q: max |motiond - KDL| tip %.1e, "
                 "links %.1e, Jacobian %.1e\n",
                 rb.name.c_str(), chain.dof(), chain.kdl_chain.getNrOfSegments(), kPoolSize,
                 worst_fk, worst_links, worst_jacobian);
  } else {
    std::fprintf(stderr, "%-20s has mimic joints in its default chain: no KDL comparison\n",
                 rb.name.c_str());
  }
  return true;
}

// ---- motiond ----

void FkMotiond(benchmark::State& state, const RobotBench* rb) {
  motion::ChainData data(*rb->chain);
  std::size_t i = 0;
  for (auto _ : state) {
    Eigen::Isometry3d tip = motion::ForwardKinematics(*rb->chain, data, rb->q_pool[i]);
    benchmark::DoNotOptimize(tip);
    i = (i + 1) & kPoolMask;
  }
}

void FkAllLinksMotiond(benchmark::State& state, const RobotBench* rb) {
  motion::ChainData data(*rb->chain);
  std::size_t i = 0;
  for (auto _ : state) {
    motion::ForwardKinematics(*rb->chain, data, rb->q_pool[i]);
    std::vector<motion::LinkPose> links = motion::LinkPoses(*rb->chain, data);
    benchmark::DoNotOptimize(links.data());
    benchmark::ClobberMemory();
    i = (i + 1) & kPoolMask;
  }
}

void JacobianMotiond(benchmark::State& state, const RobotBench* rb) {
  motion::ChainData data(*rb->chain);
  motion::Jacobian jacobian(6, rb->chain->dof());
  const Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  std::size_t i = 0;
  for (auto _ : state) {
    motion::ComputeJacobian(*rb->chain, data, rb->q_pool[i], tool, jacobian);
    benchmark::DoNotOptimize(jacobian.data());
    benchmark::ClobberMemory();
    i = (i + 1) & kPoolMask;
  }
}

// MeasureJacobian alone (an SVD), on Jacobians computed before timing.
void JacobianMeasuresMotiond(benchmark::State& state, const RobotBench* rb) {
  std::size_t i = 0;
  for (auto _ : state) {
    motion::JacobianMeasures measures = motion::MeasureJacobian(rb->jacobian_pool[i]);
    benchmark::DoNotOptimize(measures);
    i = (i + 1) & kPoolMask;
  }
}

// ---- KDL ----

void FkKdl(benchmark::State& state, const RobotBench* rb) {
  KDL::ChainFkSolverPos_recursive solver(rb->chain->kdl_chain);
  KDL::Frame tip;
  std::size_t i = 0;
  for (auto _ : state) {
    solver.JntToCart(rb->kdl_q_pool[i], tip);
    benchmark::DoNotOptimize(tip);
    i = (i + 1) & kPoolMask;
  }
}

void FkAllLinksKdl(benchmark::State& state, const RobotBench* rb) {
  KDL::ChainFkSolverPos_recursive solver(rb->chain->kdl_chain);
  std::vector<KDL::Frame> links(rb->chain->kdl_chain.getNrOfSegments());
  std::size_t i = 0;
  for (auto _ : state) {
    solver.JntToCart(rb->kdl_q_pool[i], links);
    benchmark::DoNotOptimize(links.data());
    benchmark::ClobberMemory();
    i = (i + 1) & kPoolMask;
  }
}

void JacobianKdl(benchmark::State& state, const RobotBench* rb) {
  KDL::ChainJntToJacSolver solver(rb->chain->kdl_chain);
  KDL::Jacobian jacobian(rb->chain->kdl_chain.getNrOfJoints());
  std::size_t i = 0;
  for (auto _ : state) {
    solver.JntToJac(rb->kdl_q_pool[i], jacobian);
    benchmark::DoNotOptimize(jacobian.data.data());
    benchmark::ClobberMemory();
    i = (i + 1) & kPoolMask;
  }
}

using BenchFunction = void (*)(benchmark::State&, const RobotBench*);

struct BenchKind {
  const char* group;
  BenchFunction motiond;
  BenchFunction kdl;  ///< nullptr: no KDL counterpart
};

// The "dof" counter travels into the JSON, for run_benchmarks.sh's table.
void Register(const std::string& name, BenchFunction function, const RobotBench* rb) {
  benchmark::RegisterBenchmark(name.c_str(), [function, rb](benchmark::State& state) {
    function(state, rb);
    state.counters["dof"] = rb->chain->dof();
  })->Unit(benchmark::kNanosecond);
}

void RegisterAll(const std::vector<std::unique_ptr<RobotBench>>& robots) {
  const BenchKind kinds[] = {
      {"FK", FkMotiond, FkKdl},
      {"Jacobian", JacobianMotiond, JacobianKdl},
      {"FkAllLinks", FkAllLinksMotiond, FkAllLinksKdl},
      {"JacobianMeasures", JacobianMeasuresMotiond, nullptr},
  };
  for (const BenchKind& kind : kinds) {
    for (const auto& rb : robots) {
      Register(std::string(kind.group) + "/motiond/" + rb->name, kind.motiond, rb.get());
      if (kind.kdl != nullptr && rb->kdl_comparable) {
        Register(std::string(kind.group) + "/kdl/" + rb->name, kind.kdl, rb.get());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MOTIOND_ROBOTS_DIR)) {
    if (entry.path().extension() == ".urdf") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    Fail(std::string("no *.urdf in ") + MOTIOND_ROBOTS_DIR);
    return 1;
  }

  std::vector<std::unique_ptr<RobotBench>> robots;
  for (const auto& file : files) {
    auto rb = std::make_unique<RobotBench>();
    if (!LoadRobot(file, *rb) || !VerifyAgainstKdl(*rb)) {
      std::fprintf(stderr, "kinematics_bench: aborting, nothing was measured\n");
      return 1;
    }
    robots.push_back(std::move(rb));
  }

  RegisterAll(robots);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
