// The fast engine against the FCL engine on whole robots: the bundled UR5
// and Panda (every link a capsule: their meshes are not sent) and the
// primitive arm (box, cylinder, sphere links), self-collision on, in
// scenes of random boxes, cylinders, spheres and capsules around them, at
// random joint vectors within limits: the same in_collision, the same set
// of contact pairs (with and without a safety margin and allowed pairs),
// the same minimum distance to 1e-6 m and nearest pair wherever the robot
// is clear, and margin-only contacts of the same depth. Penetration depths
// are not compared: FCL's EPA is off by centimetres for capsule-box pairs
// (fast_pair_agreement_test judges the fast depths). And whole trajectories:
// the same contacts, sample for sample.

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_checker.h"
#include "core/collision/trajectory_collisions.h"
#include "core/kinematics/chain_data.h"
#include "core/model/robot_model.h"
#include "independent_fk.h"
#include "primitive_arm.h"

namespace motion {
namespace {

using Robot = motion_test::CollisionRobot;
using motion_test::LoadCollisionRobot;

// `count` objects of every primitive kind on a shell 0.3-0.9 m about the
// base, 5-30 cm, turned at random.
std::shared_ptr<const CollisionScene> MixedScene(std::mt19937_64& rng, int count) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<CollisionObject> objects;
  for (int i = 0; i < count; ++i) {
    const double angle = 2 * M_PI * unit(rng), r = 0.3 + 0.6 * unit(rng);
    CollisionObject o;
    o.id = "object" + std::to_string(i);
    o.pose.position = Eigen::Vector3d(r * std::cos(angle), r * std::sin(angle), unit(rng));
    o.pose.orientation =
        Eigen::Quaterniond(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5)
            .normalized();
    auto size = [&] { return 0.05 + 0.25 * unit(rng); };
    switch (i % 4) {
      case 0:
        o.shape = CollisionShape::Box({size(), size(), size()});
        break;
      case 1:
        o.shape = CollisionShape::Cylinder(0.5 * size(), size());
        break;
      case 2:
        o.shape = CollisionShape::Sphere(0.5 * size());
        break;
      default:
        o.shape = CollisionShape::Capsule(0.5 * size(), size());
        break;
    }
    objects.push_back(o);
  }
  return *CollisionScene::Build(objects);
}

Eigen::VectorXd RandomJoints(const ChainModel& chain, std::mt19937_64& rng) {
  Eigen::VectorXd q(chain.dof());
  for (int j = 0; j < chain.dof(); ++j) {
    const JointLimits& l = chain.dof_limits[j];
    q[j] = std::uniform_real_distribution<double>(std::max(l.lower, -M_PI),
                                                  std::min(l.upper, M_PI))(rng);
  }
  return q;
}

std::map<std::pair<std::string, std::string>, double> ContactDepths(const CollisionVerdict& v) {
  std::map<std::pair<std::string, std::string>, double> depths;
  for (const Contact& c : v.contacts) {
    EXPECT_TRUE(depths.emplace(std::make_pair(c.link, c.other), c.depth).second)
        << "contact reported twice: " << c.link << " / " << c.other;
  }
  return depths;
}

std::set<std::pair<std::string, std::string>> Pairs(const CollisionVerdict& v) {
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& [pair, depth] : ContactDepths(v)) pairs.insert(pair);
  return pairs;
}

// Allowed collisions that leave only the pair (link, other) checked.
AllowedCollisions AllBut(const Robot& robot, const CollisionScene& scene, const std::string& link,
                         const std::string& other) {
  std::vector<std::string> links;
  for (const LinkCollisionGeometry& l : robot.collision->links()) links.push_back(l.link);
  std::vector<AllowedPair> pairs;
  auto allow = [&](const std::string& a, const std::string& b) {
    if (!((a == link && b == other) || (a == other && b == link))) pairs.push_back({a, b});
  };
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (std::size_t j = i + 1; j < links.size(); ++j) allow(links[i], links[j]);
    for (const CollisionObject& o : scene.objects()) allow(links[i], o.id);
  }
  return *AllowedCollisions::Build(*robot.collision, scene, pairs, "allowed");
}

struct Counts {
  int configurations = 0, in_collision = 0, margin_only_contacts = 0;
};

// One joint vector, every kind of query, both engines.
void CompareAt(const Robot& robot, const CollisionScene& scene, const Eigen::VectorXd& q,
               const AllowedCollisions* allowed, Counts& counts) {
  ChainData data(*robot.chain);
  auto check = [&](CollisionQuery query, CollisionEngine engine) {
    query.engine = engine;
    query.allowed = allowed;
    return CheckCollision(*robot.chain, data, *robot.collision, scene, q, query);
  };
  ++counts.configurations;
  CollisionQuery verdict;
  const CollisionVerdict fast = check(verdict, CollisionEngine::kFast);
  const CollisionVerdict fcl = check(verdict, CollisionEngine::kFcl);
  ASSERT_EQ(fast.in_collision, fcl.in_collision);
  EXPECT_EQ(Pairs(fast), Pairs(fcl));
  counts.in_collision += fast.in_collision;

  CollisionQuery distance;
  distance.compute_distance = true;
  const CollisionVerdict fast_d = check(distance, CollisionEngine::kFast);
  const CollisionVerdict fcl_d = check(distance, CollisionEngine::kFcl);
  EXPECT_EQ(fast_d.in_collision, fast.in_collision);
  EXPECT_EQ(Pairs(fast_d), Pairs(fcl_d));
  if (!fast.in_collision) {
    EXPECT_NEAR(fast_d.min_distance, fcl_d.min_distance, 1e-6);
    // Links of the bundled arms meet at their joints, so two pairs can be
    // equally near: the fast engine's nearest pair, checked alone by FCL,
    // is at the minimum distance.
    if (fast_d.nearest_link != fcl_d.nearest_link || fast_d.nearest_other != fcl_d.nearest_other) {
      const AllowedCollisions others =
          AllBut(robot, scene, fast_d.nearest_link, fast_d.nearest_other);
      CollisionQuery alone = distance;
      alone.engine = CollisionEngine::kFcl;
      alone.allowed = &others;
      const CollisionVerdict v =
          CheckCollision(*robot.chain, data, *robot.collision, scene, q, alone);
      EXPECT_NEAR(v.min_distance, fcl_d.min_distance, 1e-6)
          << fast_d.nearest_link << " / " << fast_d.nearest_other << " against "
          << fcl_d.nearest_link << " / " << fcl_d.nearest_other;
    }
  } else {
    EXPECT_LT(fast_d.min_distance, 0.0);
    EXPECT_LT(fcl_d.min_distance, 0.0);
  }

  CollisionQuery margin;
  margin.safety_margin = 0.03;
  const CollisionVerdict fast_m = check(margin, CollisionEngine::kFast);
  const CollisionVerdict fcl_m = check(margin, CollisionEngine::kFcl);
  EXPECT_EQ(Pairs(fast_m), Pairs(fcl_m));
  // A pair within the margin but apart has depth margin - distance, and
  // that distance is exact in both engines.
  const auto penetrating = ContactDepths(fast);
  const auto fcl_depths = ContactDepths(fcl_m);
  for (const auto& [pair, depth] : ContactDepths(fast_m)) {
    if (penetrating.count(pair) || !fcl_depths.count(pair)) continue;
    ++counts.margin_only_contacts;
    EXPECT_NEAR(depth, fcl_depths.at(pair), 1e-6) << pair.first << " / " << pair.second;
    EXPECT_LE(depth, margin.safety_margin + 1e-12);
  }
}

void CompareRobot(const Robot& robot, unsigned seed, int scenes, int per_scene, Counts& counts) {
  std::mt19937_64 rng(seed);
  for (int s = 0; s < scenes; ++s) {
    const auto scene = MixedScene(rng, 20);
    // Every other scene allows its first two objects to touch the first
    // link with geometry, and the first self pair to touch.
    std::vector<AllowedPair> pairs;
    if (s % 2 == 1) {
      for (const LinkCollisionGeometry& l : robot.collision->links()) {
        if (l.shapes.empty()) continue;
        pairs.push_back({l.link, scene->objects()[0].id});
        pairs.push_back({l.link, scene->objects()[1].id});
        break;
      }
      if (!robot.collision->self_pairs().empty()) {
        const auto [a, b] = robot.collision->self_pairs()[0];
        pairs.push_back({robot.collision->links()[a].link, robot.collision->links()[b].link});
      }
    }
    const AllowedCollisions allowed =
        *AllowedCollisions::Build(*robot.collision, *scene, pairs, "allowed");
    for (int k = 0; k < per_scene; ++k) {
      const Eigen::VectorXd q = RandomJoints(*robot.chain, rng);
      SCOPED_TRACE(::testing::Message() << "scene " << s << " q " << q.transpose());
      CompareAt(robot, *scene, q, pairs.empty() ? nullptr : &allowed, counts);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// 10 scenes x 40 joint vectors; the draws must give both verdicts, and
// (min_margin_only) contacts made by the margin alone.
void ExpectEnginesAgree(const Robot& robot, unsigned seed, int min_margin_only) {
  Counts counts;
  CompareRobot(robot, seed, 10, 40, counts);
  EXPECT_GT(counts.in_collision, 40);
  EXPECT_LT(counts.in_collision, counts.configurations - 40);
  EXPECT_GE(counts.margin_only_contacts, min_margin_only);
}

TEST(CollisionEnginesTest, Ur5FastAndFclAgree) {
  ExpectEnginesAgree(LoadCollisionRobot(motion_test::ReadRobotFile("ur5.urdf")), 1, 20);
}

TEST(CollisionEnginesTest, PandaFastAndFclAgree) {
  ExpectEnginesAgree(LoadCollisionRobot(motion_test::ReadRobotFile("panda.urdf")), 2, 20);
}

TEST(CollisionEnginesTest, PrimitiveArmFastAndFclAgree) {
  ExpectEnginesAgree(LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool"), 3, 0);
}

// Random joint paths through a mixed scene: every contact of one engine
// is the other's, over the same samples.
TEST(CollisionEnginesTest, TrajectoryContactsAgree) {
  const Robot robot = LoadCollisionRobot(motion_test::ReadRobotFile("ur5.urdf"));
  std::mt19937_64 rng(4);
  int contacts = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const auto scene = MixedScene(rng, 20);
    const Eigen::VectorXd from = RandomJoints(*robot.chain, rng),
                          to = RandomJoints(*robot.chain, rng);
    std::vector<double> times, positions;
    constexpr int kSamples = 200;
    for (int k = 0; k < kSamples; ++k) {
      times.push_back(0.01 * k);
      const Eigen::VectorXd q = from + (to - from) * (k / (kSamples - 1.0));
      positions.insert(positions.end(), q.data(), q.data() + q.size());
    }
    ChainData data(*robot.chain);
    TrajectoryCollisionOptions options;
    options.safety_margin = trial % 2 ? 0.02 : 0.0;
    auto run = [&](CollisionEngine engine) {
      options.engine = engine;
      return FindTrajectoryCollisions(*robot.chain, data, *robot.collision, *scene, times,
                                      positions, options);
    };
    const std::vector<TrajectoryContact> fast = run(CollisionEngine::kFast);
    const std::vector<TrajectoryContact> fcl = run(CollisionEngine::kFcl);
    ASSERT_EQ(fast.size(), fcl.size()) << "trial " << trial;
    for (std::size_t i = 0; i < fast.size(); ++i) {
      SCOPED_TRACE(::testing::Message()
                   << "trial " << trial << " " << fast[i].link << " / " << fast[i].other);
      EXPECT_EQ(fast[i].link, fcl[i].link);
      EXPECT_EQ(fast[i].other, fcl[i].other);
      EXPECT_EQ(fast[i].first_sample, fcl[i].first_sample);
      EXPECT_EQ(fast[i].last_sample, fcl[i].last_sample);
      EXPECT_EQ(fast[i].between_samples_only, fcl[i].between_samples_only);
    }
    contacts += static_cast<int>(fast.size());
  }
  EXPECT_GT(contacts, 5);
}

}  // namespace
}  // namespace motion
