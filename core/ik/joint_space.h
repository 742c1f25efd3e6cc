#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/model/chain_model.h"

namespace motion {

/// \brief splitmix64: a tiny, fast, seedable generator. IK restarts use a
/// fixed seed so the same request gives the same answer.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next();
  double Uniform(double lo, double hi);  ///< in [lo, hi)

 private:
  std::uint64_t state_;
};

/// \brief The middle of every joint's range (0 for continuous joints).
Eigen::VectorXd MidRangeConfiguration(const ChainModel& model);

/// \brief Uniform within limits; continuous joints within center +- pi.
void RandomConfiguration(const ChainModel& model, const Eigen::VectorXd& center, SplitMix64& rng,
                         Eigen::VectorXd& q);

/// \brief Brings q inside the limits: a revolute joint past a limit is first
/// moved by whole turns if that lands inside (UR joints span +-2 pi), then
/// clamped. Continuous joints are left alone.
void EnforceLimits(const ChainModel& model, Eigen::VectorXd& q);

/// \brief For every revolute or continuous joint, the value q + 2 pi k
/// (same pose) nearest to `reference` that stays within the limits.
void NearestEquivalent(const ChainModel& model, const Eigen::VectorXd& reference,
                       Eigen::VectorXd& q);

/// \brief Index of the first joint outside its limits by more than `slack`, or -1.
int FirstJointOutsideLimits(const ChainModel& model, const Eigen::VectorXd& q, double slack = 0.0);

}  // namespace motion
