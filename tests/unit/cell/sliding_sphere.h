#pragma once

// A one-joint robot for the cell tests: a prismatic joint moving a sphere
// of radius kSphereRadius along its base's `axis`, so two of them in a cell
// are two points whose distance the tests write down by hand.

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cell/cell_program.h"
#include "core/model/robot_model.h"

namespace motion_test {

inline constexpr double kSphereRadius = 0.1;

inline motion::CellRobotProgram SlidingSphere(const std::string& name, const std::string& axis) {
  const std::string urdf =
      absl::StrCat(R"(<?xml version="1.0"?>
<robot name="slider">
  <link name="base"/>
  <link name="slide"><collision><geometry><sphere radius=")",
                   kSphereRadius, R"("/></geometry></collision></link>
  <link name="tip"/>
  <joint name="x" type="prismatic"><parent link="base"/><child link="slide"/><axis xyz=")",
                   axis,
                   R"("/><limit lower="-5" upper="5" velocity="10" effort="1"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="slide"/><child link="tip"/></joint>
</robot>)");
  std::shared_ptr<const motion::RobotModel> model = *motion::RobotModel::FromUrdf(urdf);
  motion::CellRobotProgram r;
  r.name = name;
  r.chain = *model->Chain("base", "tip");
  r.collision = motion::RobotCollisionModel::Build(*r.chain, model->link_collisions());
  return r;
}

/// Samples `dt` apart of the joint x(t) over [0, duration] (the last one at
/// duration exactly).
template <typename Position>
void Sample(motion::CellRobotProgram& r, double duration, double dt, Position x) {
  r.times.clear();
  r.positions.clear();
  const int n = static_cast<int>(std::ceil(duration / dt - 1e-9));
  for (int k = 0; k <= n; ++k) {
    const double t = k == n ? duration : k * dt;
    r.times.push_back(t);
    r.positions.push_back(x(t));
  }
}

}  // namespace motion_test
