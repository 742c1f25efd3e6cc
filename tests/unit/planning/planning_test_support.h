#pragma once

// What the planner tests share: a planar two-link arm whose collision
// geometry is known in closed form, scenes of boxes, and the test's own
// judge of a returned path (dense pose-by-pose sampling of every edge, and
// FindTrajectoryCollisions over the densely sampled path).

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "../collision/primitive_arm.h"
#include "core/collision/collision_checker.h"
#include "core/collision/trajectory_collisions.h"
#include "core/ik/ik_data.h"
#include "core/motion/internal/segment_context.h"
#include "core/planning/joint_path_planner.h"
#include "unit_test_support.h"

namespace motion_test {

// Links of 0.5 and 0.4 m about +z in the xy plane. Their meshes are never
// sent, so each link is a capsule of radius 0.05 from its joint to the next
// (link1: base -> elbow at 0.5 m, link2: elbow -> tool at 0.4 m): the arm is
// two segments 0.05 thick, and a box is hit when a segment comes within
// 0.05 of it. The links are adjacent: no self-collision pair.
inline constexpr const char* kPlanarArm = R"(<?xml version="1.0"?>
<robot name="planar_capsules">
  <link name="base_link"/>
  <link name="link1"><collision><geometry><mesh filename="link1.stl"/></geometry></collision></link>
  <link name="link2"><collision><geometry><mesh filename="link2.stl"/></geometry></collision></link>
  <link name="tool"/>
  <joint name="joint1" type="revolute"><parent link="base_link"/><child link="link1"/><axis xyz="0 0 1"/><limit lower="-3.141592653589793" upper="3.141592653589793" velocity="1" effort="1"/></joint>
  <joint name="joint2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/><limit lower="-2.5" upper="2.5" velocity="1" effort="1"/></joint>
  <joint name="tool_joint" type="fixed"><parent link="link2"/><child link="tool"/><origin xyz="0.4 0 0"/></joint>
</robot>)";
inline constexpr double kCapsuleRadius = 0.05;

struct Box {
  std::string id;
  Eigen::Vector3d centre, size;
};

inline std::shared_ptr<const motion::CollisionScene> Scene(const std::vector<Box>& boxes) {
  std::vector<motion::CollisionObject> objects;
  for (const Box& b : boxes) {
    motion::CollisionObject o;
    o.id = b.id;
    o.pose.position = b.centre;
    o.shape = motion::CollisionShape::Box(b.size);
    objects.push_back(o);
  }
  return *motion::CollisionScene::Build(objects);
}

/// What a segment planner works with on `robot` from `start`: jerk-limited
/// `limits`, 4 ms samples, no speed override, the point budget far away,
/// samples into `out`, collisions with `scene` (no self-collision, no
/// margin), no dynamics.
inline motion::SegmentContext PlanarContext(const CollisionRobot& robot, motion::IkData& data,
                                            const std::vector<motion::JointLimits>& limits,
                                            const Eigen::VectorXd& start, motion::Trajectory& out,
                                            const motion::CollisionScene& scene) {
  return motion::SegmentContext{
      *robot.chain,
      data,
      limits,
      motion::ProfileKind::kJerkLimited,
      start,
      motion::Pose{},
      0.004,
      1.0,
      0.0,
      1000000,
      {},
      out,
      true,
      false,
      motion::SegmentCollision{robot.collision.get(), &scene, false, 0.0, nullptr},
      1.0,
      nullptr,
      motion::Payload{},
      motion::kDefaultGravity};
}

/// The straight joint motion a -> b sampled every `step` rad (max over
/// joints) or finer, both ends included, row-major.
inline std::vector<double> DenseSamples(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                                        double step) {
  const int n = std::max(1, static_cast<int>(std::ceil((b - a).cwiseAbs().maxCoeff() / step)));
  std::vector<double> positions;
  for (int k = 0; k <= n; ++k) {
    const Eigen::VectorXd q = a + (b - a) * (static_cast<double>(k) / n);
    positions.insert(positions.end(), q.data(), q.data() + q.size());
  }
  return positions;
}

/// FindTrajectoryCollisions on positions 0.01 s apart.
inline std::vector<motion::TrajectoryContact> ContactsAlong(const CollisionRobot& robot,
                                                            const motion::CollisionScene& scene,
                                                            const std::vector<double>& positions,
                                                            const motion::CollisionQuery& query) {
  motion::ChainData data(*robot.chain);
  const int dof = robot.chain->dof();
  std::vector<double> times;
  for (std::size_t k = 0; k * dof < positions.size(); ++k) times.push_back(0.01 * k);
  motion::TrajectoryCollisionOptions options;
  options.self_collision = query.self_collision;
  options.safety_margin = query.safety_margin;
  return motion::FindTrajectoryCollisions(*robot.chain, data, *robot.collision, scene, times,
                                          positions, options);
}

/// The test's judge of a kFound / kStraightLineClear answer: it starts and
/// ends exactly at start and goal, every waypoint is within limits, and
/// every edge sampled every `step` rad is clear pose by pose (CheckCollision)
/// and as a whole (FindTrajectoryCollisions over the dense samples).
inline void ExpectValidPath(const CollisionRobot& robot, const motion::CollisionScene& scene,
                            const Eigen::VectorXd& start, const Eigen::VectorXd& goal,
                            const std::vector<Eigen::VectorXd>& path,
                            const motion::CollisionQuery& query, double step = 2e-3) {
  ASSERT_GE(path.size(), 2u);
  const int dof = robot.chain->dof();
  for (int k = 0; k < dof; ++k) {
    EXPECT_EQ(path.front()[k], start[k]) << "joint " << k;
    EXPECT_EQ(path.back()[k], goal[k]) << "joint " << k;
  }
  for (std::size_t i = 0; i < path.size(); ++i) {
    ASSERT_EQ(path[i].size(), dof);
    for (int k = 0; k < dof; ++k) {
      const motion::JointLimits& l = robot.chain->dof_limits[k];
      if (!l.bounded) continue;
      EXPECT_GE(path[i][k], l.lower) << "waypoint " << i << " joint " << k;
      EXPECT_LE(path[i][k], l.upper) << "waypoint " << i << " joint " << k;
    }
  }
  motion::ChainData data(*robot.chain);
  std::vector<double> all;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const std::vector<double> edge = DenseSamples(path[i], path[i + 1], step);
    for (std::size_t s = 0; s * dof < edge.size(); ++s) {
      const Eigen::Map<const Eigen::VectorXd> q(edge.data() + s * dof, dof);
      const motion::CollisionVerdict v =
          motion::CheckCollision(*robot.chain, data, *robot.collision, scene, q, query);
      ASSERT_FALSE(v.in_collision) << "edge " << i << " sample " << s << ": " << v.contacts[0].link
                                   << " - " << v.contacts[0].other;
    }
    all.insert(all.end(), edge.begin() + (i == 0 ? 0 : dof), edge.end());
  }
  EXPECT_TRUE(ContactsAlong(robot, scene, all, query).empty());
}

}  // namespace motion_test
