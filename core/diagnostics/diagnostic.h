#pragma once

#include <cstdint>
#include <string>

namespace motion {

/// \brief The diagnostic codes of the KDL compute interface motiond serves
/// (its KDL_* codes without the prefix), plus the few the planners add. Numbering matches
/// motion.v1.DiagnosticCode.
enum class DiagnosticCode {
  kInvalidModel = 1,
  kTargetUnreachable = 2,
  kIkFailed = 3,
  kJointLimit = 4,
  kVelocityLimit = 5,
  kAccelLimit = 6,
  kSingularity = 7,
  kArcDegenerate = 8,
  kPathEmpty = 9,
  kZoneApproximated = 10,
  kConfigurationFlip = 11,
  kCartesianDeviation = 12,
  kMimicJoint = 13,
  kJerkLimit = 14,
  kSpeedReduced = 15,
  kZoneReduced = 16,
  kConfigurationChange = 17,
  kCollision = 18,       ///< error: a link touches something at or between samples
  kPlanningFailed = 19,  ///< error: no collision-free way for a MoveJ that asked for one
  kTorqueLimit = 20,     ///< error: a joint's |torque| from the sampled motion exceeds max_torque
  /// warning: inertials or efforts missing or implausible; torque is not a limit of the request
  kDynamicsUnavailable = 21,
};

enum class Severity { kInfo = 1, kWarning = 2, kError = 3 };

/// \brief A finding about a well-formed request: why a motion cannot be done
/// (error) or where it is marginal (warning). Not an RPC error.
struct Diagnostic {
  Severity severity = Severity::kError;
  DiagnosticCode code = DiagnosticCode::kIkFailed;
  std::string message;
  std::string segment_id;
  std::int64_t point_index = -1;  ///< -1: not tied to a sample
  std::string joint_name;
  double value = 0.0;  ///< the offending value, when there is one
  double limit = 0.0;  ///< the limit it was checked against
  double time = 0.0;   ///< seconds from path start, when tied to a sample
  std::string source;  ///< the segment's source (program line, target name), if given
  /// COLLISION: the pair and how deep (m).
  bool has_contact = false;
  std::string contact_link, contact_other;
  double contact_depth = 0.0;
};

const char* DiagnosticCodeName(DiagnosticCode code);

}  // namespace motion
