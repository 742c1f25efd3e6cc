#pragma once

// A three-link arm made of URDF collision primitives, for the collision
// tests (geometry the tests can reason about by hand), and the loading of a
// robot's chain with its collision model that those tests share.

#include <memory>
#include <string>

#include "core/collision/robot_collision_model.h"
#include "core/model/robot_model.h"

namespace motion_test {

/// A URDF's model, one chain of it and the chain's collision model.
struct CollisionRobot {
  std::shared_ptr<const motion::RobotModel> model;
  std::shared_ptr<const motion::ChainModel> chain;
  std::shared_ptr<const motion::RobotCollisionModel> collision;
};

/// `urdf` with its default chain (base and tip empty) or base..tip; the
/// URDF must load (these are the tests' own robots).
inline CollisionRobot LoadCollisionRobot(const std::string& urdf, const std::string& base = "",
                                         const std::string& tip = "") {
  CollisionRobot r;
  r.model = *motion::RobotModel::FromUrdf(urdf);
  r.chain = base.empty() ? *r.model->Chain() : *r.model->Chain(base, tip);
  r.collision = motion::RobotCollisionModel::Build(*r.chain, r.model->link_collisions());
  return r;
}

// base: a 0.2 m cube; link1: cylinder r 0.05 along z, 0.4 long; link2: box
// 0.06 x 0.06 x 0.4; link3: sphere r 0.06; every shape off its link origin.
inline constexpr const char* kPrimitiveArm = R"(<?xml version="1.0"?>
<robot name="primitive_arm">
  <link name="base"><collision><origin xyz="0 0 -0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="link1"><collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision></link>
  <link name="link2"><collision><origin xyz="0 0 0.2"/><geometry><box size="0.06 0.06 0.4"/></geometry></collision></link>
  <link name="link3"><collision><origin xyz="0 0 0.15"/><geometry><sphere radius="0.06"/></geometry></collision></link>
  <link name="tool"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="link1"/><origin xyz="0 0 0"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" velocity="1" effort="1"/></joint>
  <joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0 0 0.4"/><axis xyz="0 1 0"/><limit lower="-3.0" upper="3.0" velocity="1" effort="1"/></joint>
  <joint name="j3" type="revolute"><parent link="link2"/><child link="link3"/><origin xyz="0 0 0.4"/><axis xyz="0 1 0"/><limit lower="-3.0" upper="3.0" velocity="1" effort="1"/></joint>
  <joint name="tool_joint" type="fixed"><parent link="link3"/><child link="tool"/><origin xyz="0 0 0.2"/></joint>
</robot>)";

}  // namespace motion_test
