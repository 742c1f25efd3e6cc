// IK benchmark: robots and problem sets (uniform, near-singular), seeded per robot.
#include "bench/ik_bench_protocol.h"

namespace ik_bench {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "ik_bench: %s\n", message.c_str());
  std::exit(1);
}

// FNV-1a: a stable hash of the robot name (std::hash is not), so adding a
// robot does not change another robot's samples.
std::uint64_t NameHash(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::uint64_t StreamSeed(const std::string& robot, std::uint64_t stream) {
  return kSampleSeed ^ NameHash(robot) ^ (stream * 0x9e3779b97f4a7c15ull);
}

Problem MakeProblem(const motion::ChainModel& chain, motion::ChainData& data,
                    const Eigen::VectorXd& q, Category category) {
  Problem p;
  p.q = q;
  p.target = motion::Pose::FromIsometry(motion::ForwardKinematics(chain, data, q));
  p.target_isometry = p.target.ToIsometry();
  p.category = category;
  return p;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double SigmaMin(const motion::ChainModel& chain, motion::ChainData& data, const Eigen::VectorXd& q,
                motion::Jacobian& jacobian) {
  motion::ComputeJacobian(chain, data, q, Eigen::Isometry3d::Identity(), jacobian);
  const motion::JacobianMeasures measures = motion::MeasureJacobian(jacobian);
  return measures.singular_values[measures.singular_values.size() - 1];
}

std::vector<Problem> UniformProblems(const Arm& arm, int count) {
  const motion::ChainModel& chain = *arm.chain;
  motion::ChainData data(chain);
  motion::SplitMix64 rng(StreamSeed(arm.name, 1));
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  Eigen::VectorXd q(chain.dof());
  std::vector<Problem> problems;
  problems.reserve(count);
  for (int i = 0; i < count; ++i) {
    motion::RandomConfiguration(chain, mid, rng, q);
    problems.push_back(MakeProblem(chain, data, q, kUniform));
  }
  return problems;
}

/// The near-singular set: `flags.singular_samples` targets alternating
/// elbow / wrist near straight, then the `sigma_fraction` of `sigma_pool`
/// uniform samples with the smallest sigma_min. Seeds random within limits.
void SingularProblems(const Arm& arm, const Flags& flags, ArmReport& report) {
  const motion::ChainModel& chain = *arm.chain;
  motion::ChainData data(chain);
  motion::Jacobian jacobian(6, chain.dof());
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  Eigen::VectorXd q(chain.dof());

  for (const StraightJoint& s : kStraightJoints) {
    if (arm.name != s.robot) continue;
    const auto it = std::find(chain.dof_names.begin(), chain.dof_names.end(), s.joint);
    if (it == chain.dof_names.end()) Die(arm.name + ": no joint " + s.joint + " in default chain");
    const int dof = static_cast<int>(it - chain.dof_names.begin());
    const motion::JointLimits& l = chain.dof_limits[dof];
    const double lower = l.bounded ? std::max(l.lower, s.straight - flags.straight_window)
                                   : s.straight - flags.straight_window;
    const double upper = l.bounded ? std::min(l.upper, s.straight + flags.straight_window)
                                   : s.straight + flags.straight_window;
    if (!(lower < upper)) Die(arm.name + ": straight window of " + s.joint + " outside limits");
    report.windows.push_back({&s, dof, lower, upper});
  }
  if (report.windows.size() != 2) Die(arm.name + ": needs one elbow and one wrist joint");

  motion::SplitMix64 rng(StreamSeed(arm.name, 2));
  for (int i = 0; i < flags.singular_samples; ++i) {
    const ArmReport::Window& w = report.windows[i % 2];
    motion::RandomConfiguration(chain, mid, rng, q);
    q[w.dof] = rng.Uniform(w.lower, w.upper);
    report.singular.push_back(MakeProblem(chain, data, q, w.spec->category));
  }

  // Rank a uniform pool by sigma_min; keep the smallest fraction.
  motion::SplitMix64 pool_rng(StreamSeed(arm.name, 3));
  std::vector<Eigen::VectorXd> pool(flags.sigma_pool, Eigen::VectorXd(chain.dof()));
  std::vector<std::pair<double, std::size_t>> ranked(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) {
    Breathe();
    motion::RandomConfiguration(chain, mid, pool_rng, pool[i]);
    ranked[i] = {SigmaMin(chain, data, pool[i], jacobian), i};
  }
  std::vector<double> all_sigma(ranked.size());
  for (std::size_t i = 0; i < ranked.size(); ++i) all_sigma[i] = ranked[i].first;
  report.uniform_sigma_median = Median(all_sigma);
  const auto keep = std::min<std::size_t>(
      ranked.size(), static_cast<std::size_t>(std::llround(flags.sigma_fraction * pool.size())));
  std::nth_element(ranked.begin(), ranked.begin() + keep, ranked.end());
  ranked.resize(keep);
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [sigma, index] : ranked) {
    report.singular.push_back(MakeProblem(chain, data, pool[index], kLowSigma));
    report.low_sigma_threshold = std::max(report.low_sigma_threshold, sigma);
  }

  // Seeds random within limits; sigma_min of every target for the report.
  motion::SplitMix64 seed_rng(StreamSeed(arm.name, 4));
  std::vector<double> sigmas[kCategoryCount];
  for (Problem& p : report.singular) {
    motion::RandomConfiguration(chain, mid, seed_rng, q);
    p.seed.assign(q.data(), q.data() + q.size());
    p.sigma_min = SigmaMin(chain, data, p.q, jacobian);
    sigmas[p.category].push_back(p.sigma_min);
  }
  for (int c = 0; c < kCategoryCount; ++c) report.category_sigma_median[c] = Median(sigmas[c]);
}

bool LoadArm(const std::filesystem::path& file, Arm& arm) {
  arm.name = file.stem().string();
  arm.synthetic = std::find(std::begin(kSyntheticRobots), std::end(kSyntheticRobots), arm.name) !=
                  std::end(kSyntheticRobots);
  std::ifstream in(file, std::ios::binary);
  if (!in) Die("cannot open " + file.string());
  std::stringstream text;
  text << in.rdbuf();
  auto robot = motion::RobotModel::FromUrdf(text.str());
  if (!robot.ok()) Die(arm.name + ": " + std::string(robot.status().message()));
  arm.robot = *robot;
  auto chain = arm.robot->Chain();
  if (!chain.ok()) Die(arm.name + ": " + std::string(chain.status().message()));
  arm.chain = *chain;
  arm.kdl_ok = arm.chain->mimics.empty();
  return true;
}

}  // namespace ik_bench
