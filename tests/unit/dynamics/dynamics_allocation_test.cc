// InverseDynamics, PathTorqueCoefficients and SampledTorqueRatio (without the torque output)
// allocate nothing once their DynamicsData and outputs are sized: every operator new of this
// test executable is counted, and the count must not move across the calls.

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "core/dynamics/inverse_dynamics.h"
#include "core/dynamics/path_dynamics.h"
#include "core/dynamics/trajectory_torque.h"
#include "unit_test_support.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// The replacements below pair malloc with free; GCC 12 inlines them into
// gtest's `new TestClass` under the sanitizer builds' flags and then warns
// that free meets a pointer from operator new (it does not see the pair).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace motion {
namespace {

TEST(DynamicsAllocationTest, HotCallsAllocateNothing) {
  const auto chain = motion_test::LoadChain("panda.urdf");
  ASSERT_NE(chain, nullptr);
  const int dof = chain->dof();
  DynamicsData data(*chain);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(dof, 0.3);
  const Eigen::VectorXd qd = Eigen::VectorXd::Constant(dof, -0.5);
  const Eigen::VectorXd qdd = Eigen::VectorXd::Constant(dof, 1.5);
  Eigen::VectorXd tau(dof), a(dof), b(dof), c(dof);
  Payload payload;
  payload.mass = 1.0;
  std::vector<double> positions;
  for (int i = 0; i < 50; ++i) {
    for (int j = 0; j < dof; ++j) positions.push_back(0.01 * i * (j + 1));
  }
  const long before = allocations.load();
  for (int i = 0; i < 100; ++i) {
    InverseDynamics(*chain, data, q, qd, qdd, kDefaultGravity, payload, tau);
    PathTorqueCoefficients(*chain, data, q, qd, qdd, kDefaultGravity, payload, a, b, c);
  }
  const TorqueRatio worst = SampledTorqueRatio(*chain, data, chain->dof_limits, positions, 0.004,
                                               kDefaultGravity, payload);
  const long after = allocations.load();
  EXPECT_EQ(after - before, 0);
  // The counter does count: one vector of torques is one allocation.
  std::vector<double> torques;
  SampledTorqueRatio(*chain, data, chain->dof_limits, positions, 0.004, kDefaultGravity, payload, 0,
                     -1, &torques);
  EXPECT_GT(allocations.load(), after);
  EXPECT_GE(worst.dof, 0);
}

}  // namespace
}  // namespace motion
