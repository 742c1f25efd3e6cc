#pragma once

// Shared by the unit tests that set core's model against the test-side FK:
// loading a core chain from a bundled robot file, and joint vectors written
// inline. Kept apart from independent_fk.h, which uses nothing of core.

#include <initializer_list>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "core/model/chain_model.h"
#include "core/model/robot_model.h"
#include "independent_fk.h"

namespace motion_test {

/// Core's chain base -> tip ("" = the robot's default) of a bundled robot
/// file; on failure records a test failure and returns nullptr.
inline std::shared_ptr<const motion::ChainModel> LoadChain(const std::string& file,
                                                           const std::string& base = "",
                                                           const std::string& tip = "") {
  auto model = motion::RobotModel::FromUrdf(ReadRobotFile(file));
  EXPECT_TRUE(model.ok()) << file << ": " << model.status();
  if (!model.ok()) return nullptr;
  auto chain = (*model)->Chain(base, tip);
  EXPECT_TRUE(chain.ok()) << file << ": " << chain.status();
  return chain.ok() ? *chain : nullptr;
}

/// A joint vector written inline: Vec({0.3, -1.2, 1.5}).
inline Eigen::VectorXd Vec(std::initializer_list<double> values) {
  Eigen::VectorXd q(values.size());
  int i = 0;
  for (double v : values) q[i++] = v;
  return q;
}

}  // namespace motion_test
