// Prober::MotionBound, the bound conservative advancement stands on: no
// point of any link's bounding spheres moves farther than it between two
// joint vectors, for turns of any size (a dense sampling of the straight
// joint motion measures how far they do move).

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/collision/internal/motion_probe.h"
#include "core/kinematics/forward_kinematics.h"
#include "primitive_arm.h"

namespace motion {
namespace {

std::string ReadRobot(const std::string& file) {
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Points of every shape's bounding sphere at q, world frame: the centre
// and six points on the sphere (fixed in the shape's frame).
std::vector<Eigen::Vector3d> SpherePoints(const ChainModel& chain, ChainData& data,
                                          const RobotCollisionModel& robot,
                                          const Eigen::VectorXd& q) {
  ForwardKinematics(chain, data, q);
  const std::vector<LinkPose> poses = LinkPoses(chain, data);
  std::vector<Eigen::Vector3d> points;
  for (const LinkCollisionGeometry& link : robot.links()) {
    for (const PlacedShape& s : link.shapes) {
      const Eigen::Isometry3d X_WS = poses[link.chain_link].pose * s.origin;
      const double r = s.shape.BoundingRadius();
      points.push_back(X_WS.translation());
      for (int axis = 0; axis < 3; ++axis) {
        for (double sign : {-1.0, 1.0}) {
          points.push_back(X_WS * (sign * r * Eigen::Vector3d::Unit(axis)));
        }
      }
    }
  }
  return points;
}

// Largest bound / dense-sampled motion over random motions with joints
// turning up to `turn` rad each; fails the test where the bound is short.
void ExpectBoundHolds(const motion_test::CollisionRobot& robot, double turn, int trials) {
  const ChainModel& chain = *robot.chain;
  ChainData data(chain);
  const auto scene = CollisionScene::Empty();
  TrajectoryCollisionOptions options;
  options.self_collision = false;  // the bound itself, not twice it
  Prober prober(chain, data, *robot.collision, *scene, options);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < trials; ++trial) {
    Eigen::VectorXd qa(chain.dof()), qb(chain.dof());
    for (int k = 0; k < chain.dof(); ++k) {
      qa[k] = 3.0 * u(rng);
      qb[k] = qa[k] + turn * u(rng);
    }
    const Probe a = prober.At(qa, kProbeThreshold);
    const Probe b = prober.At(qb, kProbeThreshold);
    const double bound = prober.MotionBound(qa, qb, a, b);
    ASSERT_TRUE(std::isfinite(bound)) << "trial " << trial;
    const std::vector<Eigen::Vector3d> start = SpherePoints(chain, data, *robot.collision, qa);
    double moved = 0.0;
    for (int s = 1; s <= 200; ++s) {
      const Eigen::VectorXd q = qa + (qb - qa) * (s / 200.0);
      const std::vector<Eigen::Vector3d> now = SpherePoints(chain, data, *robot.collision, q);
      for (std::size_t p = 0; p < now.size(); ++p)
        moved = std::max(moved, (now[p] - start[p]).norm());
    }
    ASSERT_GE(bound, moved) << "trial " << trial << " turn " << turn;
  }
}

TEST(MotionBoundTest, HoldsForSmallAndLargeTurnsOnThePrimitiveArm) {
  const auto arm = motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
  for (double turn : {0.05, 0.5, 2.0, 6.0}) ExpectBoundHolds(arm, turn, 100);
}

TEST(MotionBoundTest, HoldsForSmallAndLargeTurnsOnUr5AndPanda) {
  for (const char* file : {"ur5.urdf", "panda.urdf"}) {
    const auto robot = motion_test::LoadCollisionRobot(ReadRobot(file));
    for (double turn : {0.05, 0.5, 2.0, 6.0}) ExpectBoundHolds(robot, turn, 60);
  }
}

TEST(MotionBoundTest, ShrinksWithTheMotion) {
  // Halving a motion must shrink the bound (else halving never ends); a
  // bound of zero for no motion.
  const auto arm = motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
  ChainData data(*arm.chain);
  const auto scene = CollisionScene::Empty();
  Prober prober(*arm.chain, data, *arm.collision, *scene, {});
  const Eigen::Vector3d qa(0.3, -1.0, 2.0), qb(1.5, 0.7, -1.0);
  const Probe a = prober.At(qa, kProbeThreshold);
  EXPECT_EQ(prober.MotionBound(qa, qa, a, a), 0.0);
  double previous = std::numeric_limits<double>::infinity();
  for (double f : {1.0, 0.5, 0.25, 0.125}) {
    const Eigen::VectorXd qm = qa + f * (qb - qa);
    const double bound = prober.MotionBound(qa, qm, a, prober.At(qm, kProbeThreshold));
    EXPECT_LT(bound, previous) << f;
    previous = bound;
  }
}

TEST(MotionBoundTest, PairBoundHoldsInTheFrameOfTheLinkNearerTheBase) {
  // What Clears stands on for self pairs: in the lower link's frame the
  // upper link's sphere points move at most PairBound.
  for (const char* file : {"ur5.urdf", "panda.urdf"}) {
    const auto robot = motion_test::LoadCollisionRobot(ReadRobot(file));
    const ChainModel& chain = *robot.chain;
    const RobotCollisionModel& model = *robot.collision;
    ChainData data(chain);
    const auto scene = CollisionScene::Empty();
    Prober prober(chain, data, model, *scene, {});
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    // Each link's sphere points in its chain link's frame, at q.
    auto points_in = [&](const Eigen::VectorXd& q, int link, int frame_link) {
      ForwardKinematics(chain, data, q);
      const std::vector<LinkPose> poses = LinkPoses(chain, data);
      const Eigen::Isometry3d X_FW = poses[model.links()[frame_link].chain_link].pose.inverse();
      std::vector<Eigen::Vector3d> points;
      for (const PlacedShape& s : model.links()[link].shapes) {
        const Eigen::Isometry3d X_FS = X_FW * poses[model.links()[link].chain_link].pose * s.origin;
        const double r = s.shape.BoundingRadius();
        points.push_back(X_FS.translation());
        for (int axis = 0; axis < 3; ++axis) {
          points.push_back(X_FS * (r * Eigen::Vector3d::Unit(axis)));
          points.push_back(X_FS * (-r * Eigen::Vector3d::Unit(axis)));
        }
      }
      return points;
    };
    for (int trial = 0; trial < 40; ++trial) {
      Eigen::VectorXd qa(chain.dof()), qb(chain.dof());
      for (int k = 0; k < chain.dof(); ++k) {
        qa[k] = 3.0 * u(rng);
        qb[k] = qa[k] + 2.0 * u(rng);
      }
      const Probe a = prober.At(qa, kProbeThreshold);
      const Probe b = prober.At(qb, kProbeThreshold);
      prober.MotionBound(qa, qb, a, b);
      for (const auto& [la, lb] : model.self_pairs()) {
        const double bound = prober.PairBound(la, lb);
        const int lower = chain.links[model.links()[la].chain_link].after_joint <=
                                  chain.links[model.links()[lb].chain_link].after_joint
                              ? la
                              : lb;
        const int upper = lower == la ? lb : la;
        const std::vector<Eigen::Vector3d> start = points_in(qa, upper, lower);
        double moved = 0.0;
        for (int s = 1; s <= 100; ++s) {
          const std::vector<Eigen::Vector3d> now =
              points_in(qa + (qb - qa) * (s / 100.0), upper, lower);
          for (std::size_t p = 0; p < now.size(); ++p) {
            moved = std::max(moved, (now[p] - start[p]).norm());
          }
        }
        ASSERT_GE(bound, moved) << file << " " << model.links()[la].link << " / "
                                << model.links()[lb].link << " trial " << trial;
      }
    }
  }
}

}  // namespace
}  // namespace motion
