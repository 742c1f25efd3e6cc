#pragma once

#include <string>

#include <Eigen/Geometry>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/diagnostics/diagnostic.h"
#include "core/geometry/pose.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/model/chain_model.h"
#include "core/model/robot_model.h"
#include "motion/v1/common.pb.h"
#include "motion/v1/kinematics.pb.h"
#include "motion/v1/robot_registry.pb.h"

// Proto <-> core for poses, robots, kinematics and diagnostics. server/convert/
// is the one place where proto messages and core types meet (programs and
// their results: path_conversion.h).
namespace motion::server {

/// \brief The rotation of `rpy` (fixed axes X, Y, Z, in its explicit
/// unit); InvalidArgument naming `field`.unit when the unit is missing,
/// `field`.roll/pitch/yaw when one is not finite or, in radians, more than a
/// turn in size (degrees sent as radians).
absl::StatusOr<Eigen::Quaterniond> QuaternionFromRpyProto(const v1::Rpy& rpy,
                                                          absl::string_view field);

/// \brief A repeated double field as a vector (joint values, times, samples).
inline std::vector<double> ToVector(const google::protobuf::RepeatedField<double>& values) {
  return std::vector<double>(values.begin(), values.end());
}

/// \brief Validates and normalises a client pose; `field` names it in errors.
absl::StatusOr<Pose> PoseFromProto(const v1::Pose& pose, absl::string_view field);

/// \brief An optional pose field: identity when the message is absent.
absl::StatusOr<Pose> OptionalPoseFromProto(bool present, const v1::Pose& pose,
                                           absl::string_view field);

void PoseToProto(const Eigen::Isometry3d& transform, v1::Pose* out);

void LinkPoseToProto(const LinkPose& link, v1::LinkPose* out);

/// \brief RobotInfo of `chain` (the default chain or the one a caller named).
void FillRobotInfo(const std::string& robot_id, const RobotModel& model, const ChainModel& chain,
                   v1::RobotInfo* out);

/// \brief A requested configuration: flags must be -1, 0 (any) or +1
/// (InvalidArgument naming `field`, e.g. "options.configuration.elbow");
/// turns are checked against the chain's DOF by core.
absl::StatusOr<RobotConfiguration> ConfigurationFromProto(const v1::RobotConfiguration& in,
                                                          absl::string_view field);

void ConfigurationToProto(const RobotConfiguration& configuration, v1::RobotConfiguration* out);

/// \brief The largest IkOptions.timeout a request may ask for, s. A solve
/// also ends when its call is cancelled or past its deadline; this bounds
/// the calls that have neither.
inline constexpr double kMaxIkTimeoutSeconds = 10.0;

/// \brief IkOptions from the request; zero fields take the core defaults,
/// negative ones are passed on so validation can name them; a timeout above
/// kMaxIkTimeoutSeconds is INVALID_ARGUMENT.
absl::StatusOr<IkOptions> IkOptionsFromProto(const v1::IkOptions& options);

void IkResultToProto(const IkResult& result, v1::IkResult* out);

void DiagnosticToProto(const Diagnostic& diagnostic, v1::Diagnostic* out);

void FillJacobian(const Jacobian& jacobian, const JacobianMeasures& measures,
                  v1::ComputeJacobianResponse* out);

}  // namespace motion::server
