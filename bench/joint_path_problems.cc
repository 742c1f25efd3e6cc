#include "joint_path_problems.h"

#include <cstdint>
#include <functional>
#include <iostream>
#include <utility>

#include "bench_io.h"
#include "core/collision/collision_checker.h"
#include "core/collision/motion_checker.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/planning/joint_path_planner.h"

namespace motion_bench {
namespace {

struct Region {
  Eigen::Vector3d lower, upper;
  bool Contains(const Eigen::Vector3d& p) const {
    return (p.array() >= lower.array()).all() && (p.array() <= upper.array()).all();
  }
};

struct BenchScene {
  std::string name;
  std::vector<motion::CollisionObject> objects;
  Region start, goal;  ///< where the tool is at start and at goal
};

void AddBox(BenchScene& s, const std::string& id, const Eigen::Vector3d& lower,
            const Eigen::Vector3d& upper) {
  motion::CollisionObject o;
  o.id = id;
  o.pose.position = 0.5 * (lower + upper);
  o.shape = motion::CollisionShape::Box(upper - lower);
  s.objects.push_back(o);
}

// Robots stand at the origin, z up; everything is in front (+x) of them.
std::vector<BenchScene> Scenes() {
  std::vector<BenchScene> scenes;
  {
    BenchScene s{
        "table", {}, {{0.3, -0.6, 0.02}, {0.7, -0.2, 0.35}}, {{0.3, 0.2, 0.02}, {0.7, 0.6, 0.35}}};
    AddBox(s, "table", {0.15, -0.8, -0.1}, {1.0, 0.8, -0.06});
    AddBox(s, "block", {0.35, -0.1, -0.06}, {0.65, 0.1, 0.45});
    scenes.push_back(s);
  }
  {
    // Four bins, 0.35 m high, 0.4 m wide, 0.3 m deep; start in the lower
    // right bin, goal in the upper left one.
    BenchScene s{
        "shelf", {}, {{0.5, -0.3, 0.05}, {0.65, -0.1, 0.25}}, {{0.5, 0.1, 0.4}, {0.65, 0.3, 0.6}}};
    AddBox(s, "back", {0.8, -0.42, -0.05}, {0.82, 0.42, 0.72});
    AddBox(s, "side_right", {0.5, -0.42, -0.05}, {0.82, -0.4, 0.72});
    AddBox(s, "side_left", {0.5, 0.4, -0.05}, {0.82, 0.42, 0.72});
    AddBox(s, "divider", {0.5, -0.01, -0.05}, {0.82, 0.01, 0.72});
    AddBox(s, "board_low", {0.5, -0.42, -0.05}, {0.82, 0.42, -0.03});
    AddBox(s, "board_mid", {0.5, -0.42, 0.34}, {0.82, 0.42, 0.36});
    AddBox(s, "board_top", {0.5, -0.42, 0.7}, {0.82, 0.42, 0.72});
    scenes.push_back(s);
  }
  {
    // A cage open on top: start beside it, goal inside.
    BenchScene s{
        "cage", {}, {{0.2, -0.7, 0.1}, {0.5, -0.4, 0.4}}, {{0.45, -0.1, 0.1}, {0.6, 0.1, 0.25}}};
    AddBox(s, "floor", {0.35, -0.2, -0.04}, {0.75, 0.2, -0.02});
    AddBox(s, "front", {0.35, -0.2, -0.02}, {0.37, 0.2, 0.35});
    AddBox(s, "rear", {0.73, -0.2, -0.02}, {0.75, 0.2, 0.35});
    AddBox(s, "right", {0.35, -0.22, -0.02}, {0.75, -0.2, 0.35});
    AddBox(s, "left", {0.35, 0.2, -0.02}, {0.75, 0.22, 0.35});
    scenes.push_back(s);
  }
  {
    // A wall across y = 0 with a slot 0.16 m high: a narrow passage.
    BenchScene s{
        "slot", {}, {{0.3, -0.6, 0.1}, {0.7, -0.25, 0.5}}, {{0.3, 0.25, 0.1}, {0.7, 0.6, 0.5}}};
    AddBox(s, "wall_low", {0.25, -0.02, -0.1}, {1.0, 0.02, 0.3});
    AddBox(s, "wall_high", {0.25, -0.02, 0.46}, {1.0, 0.02, 1.1});
    scenes.push_back(s);
  }
  {
    BenchScene s{
        "wall", {}, {{0.3, -0.6, 0.05}, {0.7, -0.25, 0.4}}, {{0.3, 0.25, 0.05}, {0.7, 0.6, 0.4}}};
    AddBox(s, "wall", {0.3, -0.02, -0.1}, {0.9, 0.02, 0.6});
    scenes.push_back(s);
  }
  return scenes;
}

// splitmix64: the problem draws' own generator, fixed across platforms.
class Draw {
 public:
  explicit Draw(std::uint64_t seed) : state_(seed) {}
  double Uniform(double lower, double upper) {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return lower + (upper - lower) * static_cast<double>(z >> 11) * 0x1.0p-53;
  }

 private:
  std::uint64_t state_;
};

// The search that shows a drawn pair is connected: a seed the bench does
// not run, and an iteration budget that decides it (the timeout is only a
// backstop).
constexpr int kMaxUnconnectedPairs = 20;  // per scene: then it has fewer problems

motion::JointPathOptions CertificateOptions() {
  motion::JointPathOptions o;
  o.seed = 0x5eed;
  o.step = 0.5;  // fixed, so that a new default step does not change the set
  o.max_iterations = 100000;
  o.timeout = 120.0;
  o.shortcut_rounds = 0;
  return o;
}

}  // namespace

BenchRobot LoadBenchRobot(const std::string& file) {
  BenchRobot r;
  r.name = file.substr(0, file.find('.'));
  auto model = motion::RobotModel::FromUrdf(ReadText(std::string(MOTIOND_ROBOTS_DIR) + "/" + file));
  if (!model.ok()) {
    std::cerr << file << ": " << model.status() << "\n";
    std::exit(1);
  }
  r.model = *model;
  r.chain = *r.model->Chain();
  r.collision = motion::RobotCollisionModel::Build(*r.chain, r.model->link_collisions());
  return r;
}

std::vector<JointPathProblem> BuildProblems(const std::vector<BenchRobot>& robots) {
  std::vector<JointPathProblem> problems;
  const std::vector<BenchScene> scenes = Scenes();
  for (const BenchRobot& robot : robots) {
    const motion::ChainModel& chain = *robot.chain;
    motion::ChainData data(chain);
    for (std::size_t si = 0; si < scenes.size(); ++si) {
      const BenchScene& bs = scenes[si];
      auto scene = *motion::CollisionScene::Build(bs.objects);
      motion::MotionChecker checker(chain, data, *robot.collision, *scene, {});
      Draw draw(1000 * (si + 1) + robot.name.size());
      // A clear configuration with the tool in `region` (bounded tries).
      auto pick = [&](const Region& region, Eigen::VectorXd& q) {
        q.resize(chain.dof());
        for (int attempt = 0; attempt < 2000000; ++attempt) {
          for (int k = 0; k < chain.dof(); ++k) {
            const motion::JointLimits& l = chain.dof_limits[k];
            q[k] = l.bounded ? draw.Uniform(std::max(l.lower, -M_PI), std::min(l.upper, M_PI))
                             : draw.Uniform(-M_PI, M_PI);
          }
          const Eigen::Vector3d tool = motion::ForwardKinematics(chain, data, q).translation();
          if (region.Contains(tool) && checker.ConfigurationIsClear(q)) return true;
        }
        return false;
      };
      int unconnected = 0;
      for (int pair = 0; pair < 2;) {
        JointPathProblem p;
        if (!pick(bs.start, p.start) || !pick(bs.goal, p.goal)) {
          std::cerr << robot.name << "/" << bs.name << ": no start or goal found\n";
          break;
        }
        if (checker.MotionIsClear(p.start, p.goal)) continue;  // nothing to plan
        // Both clear is not both in one component of free space: the UR5's
        // stand-in capsules (5 cm, its wrist offsets 9.3 cm) put wrist 1 in
        // [1.17, 1.97] rad (+ 2 pi k) in forearm / wrist 3 contact whatever
        // the other joints, a wall no planner crosses. A pair counts once a
        // path joins it, found with an iteration budget (not a time one, so
        // the set does not depend on the machine) far above the bench's.
        const auto certificate = motion::PlanJointPath(chain, data, *robot.collision, *scene,
                                                       p.start, p.goal, CertificateOptions());
        if (!certificate.ok() || certificate->outcome != motion::JointPathOutcome::kFound) {
          std::cerr << robot.name << "/" << bs.name
                    << ": a start / goal pair no path joins, drawn again\n";
          if (++unconnected == kMaxUnconnectedPairs) break;
          continue;
        }
        p.name = robot.name + "/" + bs.name + "/" + std::to_string(pair);
        p.robot = &robot;
        p.scene = scene;
        problems.push_back(std::move(p));
        ++pair;
      }
    }
  }
  return problems;
}

}  // namespace motion_bench
