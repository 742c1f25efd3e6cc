// MotionChecker, the straight-motion check FindTrajectoryCollisions and the
// joint path planner share: the same verdict as FindTrajectoryCollisions on
// the two samples, either way round, and never "clear" where a dense
// sampling checked pose by pose finds a contact.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/collision/collision_checker.h"
#include "core/collision/motion_checker.h"
#include "core/collision/trajectory_collisions.h"
#include "primitive_arm.h"

namespace motion {
namespace {

std::shared_ptr<const CollisionScene> Boxes() {
  std::vector<CollisionObject> objects;
  const double boxes[][6] = {{0.55, 0.0, 0.4, 0.2, 0.003, 0.2},
                             {-0.3, 0.4, 0.3, 0.1, 0.1, 0.6},
                             {0.0, -0.5, 0.7, 0.3, 0.05, 0.05}};
  for (const auto& b : boxes) {
    CollisionObject o;
    o.id = "box" + std::to_string(objects.size());
    o.pose.position = Eigen::Vector3d(b[0], b[1], b[2]);
    o.shape = CollisionShape::Box(Eigen::Vector3d(b[3], b[4], b[5]));
    objects.push_back(o);
  }
  return *CollisionScene::Build(objects);
}

TEST(MotionCheckerTest, AgreesWithFindTrajectoryCollisionsOnRandomSegments) {
  const auto arm = motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
  ChainData data(*arm.chain);
  const auto scene = Boxes();
  TrajectoryCollisionOptions options;
  MotionChecker checker(*arm.chain, data, *arm.collision, *scene, options);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int clear = 0, blocked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Eigen::VectorXd qa(3), qb(3);
    for (int k = 0; k < 3; ++k) {
      qa[k] = u(rng);
      qb[k] = qa[k] + 0.5 * u(rng);
    }
    std::vector<double> positions(qa.data(), qa.data() + 3);
    positions.insert(positions.end(), qb.data(), qb.data() + 3);
    const bool found_clear = FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *scene,
                                                      {0.0, 1.0}, positions, options)
                                 .empty();
    EXPECT_EQ(checker.MotionIsClear(qa, qb), found_clear) << "trial " << trial;
    EXPECT_EQ(checker.MotionIsClear(qb, qa), found_clear) << "trial " << trial;
    EXPECT_EQ(MotionIsClear(*arm.chain, data, *arm.collision, *scene, qa, qb, options),
              found_clear);
    (found_clear ? clear : blocked)++;
  }
  // Both kinds occur, or the agreement says little.
  EXPECT_GT(clear, 30);
  EXPECT_GT(blocked, 30);
}

TEST(MotionCheckerTest, NeverClearWhereADenseSamplingTouches) {
  const auto arm = motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
  ChainData data(*arm.chain);
  const auto scene = Boxes();
  MotionChecker checker(*arm.chain, data, *arm.collision, *scene, {});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (int trial = 0; trial < 100; ++trial) {
    Eigen::VectorXd qa(3), qb(3);
    for (int k = 0; k < 3; ++k) {
      qa[k] = u(rng);
      qb[k] = qa[k] + 0.5 * u(rng);
    }
    if (!checker.MotionIsClear(qa, qb)) continue;
    for (int s = 0; s <= 400; ++s) {
      const Eigen::VectorXd q = qa + (qb - qa) * (s / 400.0);
      ASSERT_FALSE(CheckCollision(*arm.chain, data, *arm.collision, *scene, q, {}).in_collision)
          << "trial " << trial << " sample " << s;
    }
  }
}

TEST(MotionCheckerTest, APlateBetweenTheEndsBlocksTheMotion) {
  // j1 from -0.5 to 0.5 with the upper arm horizontal: link3's sphere
  // (r 0.06) circles 0.55 m from the axis and crosses the 3 mm plate at
  // angle 0 (trajectory_collisions_test's case), though both ends are clear.
  const auto arm = motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
  ChainData data(*arm.chain);
  const auto scene = Boxes();
  MotionChecker checker(*arm.chain, data, *arm.collision, *scene, {});
  const Eigen::Vector3d a(-0.5, M_PI / 2, 0.0), b(0.5, M_PI / 2, 0.0);
  EXPECT_TRUE(checker.ConfigurationIsClear(a));
  EXPECT_TRUE(checker.ConfigurationIsClear(b));
  EXPECT_FALSE(checker.MotionIsClear(a, b));
  const std::vector<Contact> at_plate = checker.ContactsAt(Eigen::Vector3d(0.0, M_PI / 2, 0.0));
  ASSERT_EQ(at_plate.size(), 1u);
  EXPECT_EQ(at_plate[0].link, "link3");
  EXPECT_EQ(at_plate[0].other, "box0");
  EXPECT_GT(checker.motions_checked(), 0);
  EXPECT_GT(checker.configurations_probed(), 3);
}

// Self pairs and links cleared pair by pair (each against its own bound):
// the stand-in capsules of UR5 and Panda, whose wrists pass close to their
// forearms, in a scene near the arm, self-collision on.
TEST(MotionCheckerTest, SixAndSevenAxisArmsNeverClearWhereADenseSamplingTouches) {
  std::vector<CollisionObject> objects;
  const double boxes[][6] = {{0.5, 0.0, 0.2, 0.3, 0.6, 0.04}, {0.0, 0.5, 0.4, 0.6, 0.04, 0.8}};
  for (const auto& b : boxes) {
    CollisionObject o;
    o.id = "box" + std::to_string(objects.size());
    o.pose.position = Eigen::Vector3d(b[0], b[1], b[2]);
    o.shape = CollisionShape::Box(Eigen::Vector3d(b[3], b[4], b[5]));
    objects.push_back(o);
  }
  const auto scene = *CollisionScene::Build(objects);
  for (const char* file : {"ur5.urdf", "panda.urdf"}) {
    std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + file);
    std::stringstream urdf;
    urdf << in.rdbuf();
    const auto robot = motion_test::LoadCollisionRobot(urdf.str());
    const ChainModel& chain = *robot.chain;
    ChainData data(chain);
    MotionChecker checker(chain, data, *robot.collision, *scene, {});
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int clear = 0, blocked = 0;
    for (int trial = 0; trial < 300; ++trial) {
      Eigen::VectorXd qa(chain.dof()), qb(chain.dof());
      for (int k = 0; k < chain.dof(); ++k) {
        const JointLimits& l = chain.dof_limits[k];
        const double lo = std::max(l.lower, -M_PI), hi = std::min(l.upper, M_PI);
        qa[k] = 0.5 * (lo + hi) + 0.5 * (hi - lo) * u(rng);
        qb[k] = std::clamp(qa[k] + 2.0 * u(rng), lo, hi);
      }
      if (!checker.MotionIsClear(qa, qb)) {
        ++blocked;
        continue;
      }
      ++clear;
      for (int s = 0; s <= 600; ++s) {
        const Eigen::VectorXd q = qa + (qb - qa) * (s / 600.0);
        ASSERT_FALSE(CheckCollision(chain, data, *robot.collision, *scene, q, {}).in_collision)
            << file << " trial " << trial << " sample " << s;
      }
    }
    EXPECT_GT(clear, 30) << file;
    EXPECT_GT(blocked, 30) << file;
  }
}

TEST(MotionCheckerTest, Ur5WristOneCannotTurnThroughItsForearm) {
  // With the 5 cm stand-ins, forearm_link and wrist_3_link touch whatever
  // the other joints when wrist 1 is in (1.18, 1.96) rad: every motion of
  // wrist 1 from 0.9 to 2.2 crosses that, only self pairs stop it.
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/ur5.urdf");
  std::stringstream urdf;
  urdf << in.rdbuf();
  const auto robot = motion_test::LoadCollisionRobot(urdf.str());
  ChainData data(*robot.chain);
  const auto scene = CollisionScene::Empty();
  MotionChecker checker(*robot.chain, data, *robot.collision, *scene, {});
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-M_PI, M_PI);
  int crossings = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::VectorXd qa(6), qb(6);
    for (int k = 0; k < 6; ++k) {
      qa[k] = u(rng);
      qb[k] = qa[k] + 0.3 * u(rng);
    }
    qa[3] = 0.9;
    qb[3] = 2.2;
    if (!checker.ConfigurationIsClear(qa) || !checker.ConfigurationIsClear(qb)) continue;
    ++crossings;
    EXPECT_FALSE(checker.MotionIsClear(qa, qb)) << "trial " << trial;
  }
  EXPECT_GT(crossings, 40);
}

}  // namespace
}  // namespace motion
