#include "core/ik/joint_space.h"

#include <algorithm>
#include <cmath>

namespace motion {
namespace {

constexpr double kTwoPi = 2.0 * M_PI;

bool Rotary(JointType type) { return type != JointType::kPrismatic; }

}  // namespace

std::uint64_t SplitMix64::Next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double SplitMix64::Uniform(double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(Next() >> 11) * 0x1.0p-53;
}

Eigen::VectorXd MidRangeConfiguration(const ChainModel& model) {
  Eigen::VectorXd q(model.dof());
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    q[i] = l.bounded ? 0.5 * (l.lower + l.upper) : 0.0;
  }
  return q;
}

void RandomConfiguration(const ChainModel& model, const Eigen::VectorXd& center, SplitMix64& rng,
                         Eigen::VectorXd& q) {
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    q[i] =
        l.bounded ? rng.Uniform(l.lower, l.upper) : rng.Uniform(center[i] - M_PI, center[i] + M_PI);
  }
}

void EnforceLimits(const ChainModel& model, Eigen::VectorXd& q) {
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    if (!l.bounded) continue;
    double v = q[i];
    if (Rotary(model.dof_types[i])) {
      if (v > l.upper && v - kTwoPi >= l.lower) v -= kTwoPi * std::floor((v - l.lower) / kTwoPi);
      if (v < l.lower && v + kTwoPi <= l.upper) v += kTwoPi * std::ceil((l.lower - v) / kTwoPi);
    }
    q[i] = std::clamp(v, l.lower, l.upper);
  }
}

void NearestEquivalent(const ChainModel& model, const Eigen::VectorXd& reference,
                       Eigen::VectorXd& q) {
  for (int i = 0; i < model.dof(); ++i) {
    if (!Rotary(model.dof_types[i])) continue;
    const JointLimits& l = model.dof_limits[i];
    const double nearest = q[i] + kTwoPi * std::round((reference[i] - q[i]) / kTwoPi);
    if (!l.bounded) {
      q[i] = nearest;
      continue;
    }
    // Try the turns around the nearest one; keep the closest within limits.
    double best = q[i];
    for (int k = -1; k <= 1; ++k) {
      const double candidate = nearest + k * kTwoPi;
      if (candidate >= l.lower && candidate <= l.upper &&
          std::abs(candidate - reference[i]) < std::abs(best - reference[i])) {
        best = candidate;
      }
    }
    q[i] = best;
  }
}

int FirstJointOutsideLimits(const ChainModel& model, const Eigen::VectorXd& q, double slack) {
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    if (l.bounded && (q[i] < l.lower - slack || q[i] > l.upper + slack)) return i;
  }
  return -1;
}

}  // namespace motion
