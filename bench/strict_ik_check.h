#pragma once

// The benchmark's own judge of an IK answer (TRAC-IK's "strict" criterion):
// joints within limits, |dp| <= 1e-5 m and rotation angle <= 1e-5 rad. It
// does not trust the solver's verdict: the pose comes from an FK evaluation
// here, with KDL's recursive FK on the chain when KDL can express it (an
// implementation independent of the solvers' own motiond FK), and the errors
// from formulas written here rather than motion::ComputePoseError.

#include <cmath>
#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "core/ik/joint_space.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/model/chain_model.h"

namespace motion_bench {

struct StrictVerdict {
  bool within_limits = false;
  double position_error = 0.0;  ///< m
  double rotation_error = 0.0;  ///< rad, angle of R_target R^T in [0, pi]
  bool pose_ok = false;         ///< both errors within tolerance (limits ignored)
  bool strict() const { return within_limits && pose_ok; }
};

/// Angle of the rotation R (in [0, pi]) from sin and cos together, so it is
/// accurate near 0 where acos((trace - 1) / 2) loses half the digits.
inline double RotationAngle(const Eigen::Matrix3d& r) {
  const Eigen::Vector3d sine_axis(r(2, 1) - r(1, 2), r(0, 2) - r(2, 0), r(1, 0) - r(0, 1));
  return std::atan2(0.5 * sine_axis.norm(), 0.5 * (r.trace() - 1.0));
}

class StrictIkCheck {
 public:
  StrictIkCheck(const motion::ChainModel& chain, double position_tolerance,
                double rotation_tolerance)
      : chain_(chain),
        position_tolerance_(position_tolerance),
        rotation_tolerance_(rotation_tolerance),
        use_kdl_(chain.mimics.empty()),
        kdl_fk_(chain.kdl_chain),
        kdl_q_(chain.kdl_chain.getNrOfJoints()),
        data_(chain) {}

  /// Which FK judges: "kdl" or "motiond" (chains with mimic joints).
  const char* fk_name() const { return use_kdl_ ? "kdl" : "motiond"; }

  StrictVerdict operator()(const Eigen::VectorXd& q, const Eigen::Isometry3d& target) {
    StrictVerdict v;
    if (q.size() != chain_.dof() || !q.allFinite()) {
      v.position_error = v.rotation_error = std::numeric_limits<double>::infinity();
      return v;
    }
    v.within_limits = motion::FirstJointOutsideLimits(chain_, q) < 0;
    Eigen::Vector3d p;
    Eigen::Matrix3d r;
    if (use_kdl_) {
      kdl_q_.data = q;
      KDL::Frame frame;
      kdl_fk_.JntToCart(kdl_q_, frame);
      for (int i = 0; i < 3; ++i) {
        p[i] = frame.p(i);
        for (int j = 0; j < 3; ++j) r(i, j) = frame.M(i, j);
      }
    } else {
      const Eigen::Isometry3d pose = motion::ForwardKinematics(chain_, data_, q);
      p = pose.translation();
      r = pose.linear();
    }
    v.position_error = (target.translation() - p).norm();
    v.rotation_error = RotationAngle(target.linear() * r.transpose());
    v.pose_ok = v.position_error <= position_tolerance_ && v.rotation_error <= rotation_tolerance_;
    return v;
  }

 private:
  const motion::ChainModel& chain_;
  double position_tolerance_;
  double rotation_tolerance_;
  bool use_kdl_;
  KDL::ChainFkSolverPos_recursive kdl_fk_;
  KDL::JntArray kdl_q_;
  motion::ChainData data_;
};

}  // namespace motion_bench
