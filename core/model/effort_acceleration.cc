#include "core/model/effort_acceleration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "absl/strings/str_format.h"
#include "core/model/gravity.h"
#include "core/model/joint_motion.h"

namespace motion {
namespace {

// Work per pose is proportional to the joints; long chains get fewer poses and less refining
// (a pose of 7 joints takes about 3 us).
constexpr int kJointPoseBudget = 20000;
constexpr int kJointRefineBudget = 40000;
constexpr int kFewestPoses = 64;

// The i-th point (i >= 1) of the van der Corput sequence in `base`, in (0, 1).
double RadicalInverse(int i, int base) {
  double result = 0.0, unit = 1.0 / base;
  for (; i > 0; i /= base, unit /= base) result += unit * (i % base);
  return result;
}

std::vector<int> FirstPrimes(int count) {
  std::vector<int> primes;
  for (int n = 2; static_cast<int>(primes.size()) < count; ++n) {
    if (std::none_of(primes.begin(), primes.end(), [n](int p) { return n % p == 0; })) {
      primes.push_back(n);
    }
  }
  return primes;
}

// The composite body of everything beyond a joint, in base coordinates: mass, first moment
// h = sum m c, and inertia about the base origin.
struct Composite {
  double mass = 0.0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

// g_k (signed) and M_kk of every joint at pose q, written into `gravity_torque` and `inertia`.
class PoseDynamics {
 public:
  explicit PoseDynamics(const ChainModel& model) : model_(model), frames_(model.joints.size()) {}

  void Evaluate(const Eigen::VectorXd& q, const Eigen::Vector3d& gravity,
                std::vector<double>& gravity_torque, std::vector<double>& inertia) {
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    for (std::size_t k = 0; k < model_.joints.size(); ++k) {
      const ChainJoint& joint = model_.joints[k];
      pose =
          pose * joint.origin * JointMotion(joint, joint.multiplier * q[joint.dof] + joint.offset);
      frames_[k] = pose;
    }
    Composite beyond;
    for (int k = static_cast<int>(model_.joints.size()) - 1; k >= 0; --k) {
      const Eigen::Isometry3d& frame = frames_[k];
      const BodyInertia& body = model_.bodies[k];
      const Eigen::Vector3d c = frame * body.center_of_mass;
      const Eigen::Matrix3d& r = frame.linear();
      beyond.mass += body.mass;
      beyond.moment += body.mass * c;
      beyond.inertia +=
          r * body.inertia * r.transpose() +
          body.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
      const Eigen::Vector3d axis = r * model_.joints[k].axis;
      if (model_.joints[k].type == JointType::kPrismatic) {
        gravity_torque[k] = beyond.mass * gravity.dot(axis);
        inertia[k] = beyond.mass;
        continue;
      }
      // About the joint's origin o instead of the base origin: each body's m |a x c|^2 becomes
      // m |a x (c - o)|^2, so a^T I_o a = a^T I_0 a - 2 (a x o).(a x h) + m |a x o|^2 with
      // h = sum m c, the composite's first moment.
      const Eigen::Vector3d o = frame.translation();
      const Eigen::Vector3d lever = beyond.moment - beyond.mass * o;  // m (c - o)
      gravity_torque[k] = axis.dot(lever.cross(gravity));
      const Eigen::Vector3d ao = axis.cross(o), ah = axis.cross(beyond.moment);
      inertia[k] =
          axis.dot(beyond.inertia * axis) + beyond.mass * ao.squaredNorm() - 2.0 * ao.dot(ah);
    }
  }

 private:
  const ChainModel& model_;
  std::vector<Eigen::Isometry3d> frames_;
};

// Per DOF, (effort - |g_i(q)|) / M_ii(q) at one pose: what the effort leaves after gravity, over
// the inertia; -inf where gravity alone needs the whole effort.
class PoseAccelerations {
 public:
  PoseAccelerations(const ChainModel& model, const std::vector<JointLimits>& limits,
                    const Eigen::Vector3d& gravity)
      : model_(model),
        limits_(limits),
        gravity_(gravity),
        dynamics_(model),
        gravity_torque_(model.joints.size()),
        inertia_(model.joints.size()),
        dof_gravity_(model.dof()),
        dof_root_inertia_(model.dof()) {}

  void At(const Eigen::VectorXd& q, std::vector<double>& acceleration) {
    dynamics_.Evaluate(q, gravity_, gravity_torque_, inertia_);
    std::fill(dof_gravity_.begin(), dof_gravity_.end(), 0.0);
    std::fill(dof_root_inertia_.begin(), dof_root_inertia_.end(), 0.0);
    for (std::size_t k = 0; k < model_.joints.size(); ++k) {
      const ChainJoint& joint = model_.joints[k];
      dof_gravity_[joint.dof] += joint.multiplier * gravity_torque_[k];
      dof_root_inertia_[joint.dof] +=
          std::abs(joint.multiplier) * std::sqrt(std::max(inertia_[k], 0.0));
    }
    for (int i = 0; i < model_.dof(); ++i) {
      const double left = limits_[i].max_torque - std::abs(dof_gravity_[i]);
      const double m = dof_root_inertia_[i] * dof_root_inertia_[i];
      acceleration[i] = !(left > 0) ? -std::numeric_limits<double>::infinity()
                        : m > 0     ? left / m
                                    : std::numeric_limits<double>::infinity();
    }
  }

 private:
  const ChainModel& model_;
  const std::vector<JointLimits>& limits_;
  const Eigen::Vector3d gravity_;
  PoseDynamics dynamics_;
  std::vector<double> gravity_torque_, inertia_, dof_gravity_, dof_root_inertia_;
};

// Pattern search from `q` for the pose where DOF i's acceleration is least: each DOF in turn
// steps both ways within its limits while that lowers it, the step halving from a tenth of the
// range down to kFinestStep, at most `evaluations` poses. Returns the least value found.
double Refined(PoseAccelerations& evaluate, const std::vector<std::pair<double, double>>& range,
               int i, Eigen::VectorXd q, double value, int evaluations,
               std::vector<double>& scratch) {
  constexpr double kFinestStep = 1e-2;  // rad or m: the value is flat (quadratic) near the worst
  double share = 0.1;
  for (;; share *= 0.5) {
    bool moved = false, any_step = false;
    for (int j = 0; j < q.size(); ++j) {
      const double step = share * (range[j].second - range[j].first);
      if (step < kFinestStep) continue;
      any_step = true;
      for (const double direction : {1.0, -1.0}) {
        if (evaluations-- <= 0) return value;
        const double before = q[j];
        q[j] = std::clamp(before + direction * step, range[j].first, range[j].second);
        evaluate.At(q, scratch);
        if (scratch[i] < value) {
          value = scratch[i];
          moved = true;
          break;
        }
        q[j] = before;
      }
    }
    if (!any_step) break;
    if (moved) share *= 2.0;  // the same step again until it stops helping
  }
  return value;
}

}  // namespace

std::vector<double> EffortAccelerations(const ChainModel& model,
                                        const std::vector<JointLimits>& limits,
                                        const Eigen::Vector3d& gravity) {
  const int dof = model.dof();
  const int joints = static_cast<int>(model.joints.size());
  std::vector<double> none(dof, 0.0);
  for (int i = 0; i < dof; ++i) {
    if (!(limits[i].max_torque > 0)) return none;
  }
  for (const BodyInertia& body : model.bodies) {
    if (!(body.mass > 0)) return none;
  }
  std::vector<std::pair<double, double>> range(dof);
  for (int i = 0; i < dof; ++i) {
    const JointLimits& l = limits[i];
    range[i] = l.bounded ? std::make_pair(l.lower, l.upper) : std::make_pair(-M_PI, M_PI);
  }
  const int samples =
      std::clamp(kJointPoseBudget / std::max(joints, 1), kFewestPoses, kEffortAccelerationPoses);
  const std::vector<int> bases = FirstPrimes(dof);
  PoseAccelerations evaluate(model, limits, gravity);
  std::vector<double> at(dof), least(dof, std::numeric_limits<double>::infinity());
  std::vector<Eigen::VectorXd> worst_pose(dof, Eigen::VectorXd::Zero(dof));
  Eigen::VectorXd q(dof);
  for (int s = -2; s < samples; ++s) {
    for (int i = 0; i < dof; ++i) {
      const auto [lower, upper] = range[i];
      const double u = s == -2 ? -1.0 : s == -1 ? 0.5 : RadicalInverse(s + 1, bases[i]);
      q[i] = u < 0 ? std::clamp(0.0, lower, upper) : lower + u * (upper - lower);
    }
    evaluate.At(q, at);
    for (int i = 0; i < dof; ++i) {
      if (!(at[i] > 0)) return none;  // gravity alone needs the whole effort here
      if (at[i] < least[i]) {
        least[i] = at[i];
        worst_pose[i] = q;
      }
    }
  }
  const int refine_evaluations = kJointRefineBudget / std::max(joints * dof, 1);
  for (int i = 0; i < dof; ++i) {
    least[i] = Refined(evaluate, range, i, worst_pose[i], least[i], refine_evaluations, at);
    if (!(least[i] > 0) || !std::isfinite(least[i])) return none;
  }
  return least;
}

void UseEffortAccelerations(const ChainModel& model, std::vector<JointLimits>& limits) {
  const std::vector<double> from_effort = EffortAccelerations(model, limits, kDefaultGravity);
  for (int i = 0; i < model.dof(); ++i) {
    JointLimits& l = limits[i];
    if (!(from_effort[i] > 0) || l.acceleration_source != kDefaultAccelerationSource) continue;
    const char* unit = model.dof_types[i] == JointType::kPrismatic ? "m/s^2" : "rad/s^2";
    const double cap = kMaxAccelerationPerVelocity * l.max_velocity;
    l.max_acceleration = std::min(from_effort[i], cap);
    l.acceleration_source = absl::StrFormat(
        "%s%.1f %s in the worst pose%s", kEffortAccelerationSource, from_effort[i], unit,
        from_effort[i] <= cap ? " (URDF inertials and efforts, no payload)"
                              : ", capped at 10 x max_velocity per second");
    if (l.jerk_source == kDefaultJerkSource) {
      l.max_jerk = kDefaultJerkPerAcceleration * l.max_acceleration;
    }
  }
}

}  // namespace motion
