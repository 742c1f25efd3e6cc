#include "core/diagnostics/diagnostic.h"

namespace motion {

const char* DiagnosticCodeName(DiagnosticCode code) {
  switch (code) {
    case DiagnosticCode::kInvalidModel:
      return "INVALID_MODEL";
    case DiagnosticCode::kTargetUnreachable:
      return "TARGET_UNREACHABLE";
    case DiagnosticCode::kIkFailed:
      return "IK_FAILED";
    case DiagnosticCode::kJointLimit:
      return "JOINT_LIMIT";
    case DiagnosticCode::kVelocityLimit:
      return "VELOCITY_LIMIT";
    case DiagnosticCode::kAccelLimit:
      return "ACCEL_LIMIT";
    case DiagnosticCode::kSingularity:
      return "SINGULARITY";
    case DiagnosticCode::kArcDegenerate:
      return "ARC_DEGENERATE";
    case DiagnosticCode::kPathEmpty:
      return "PATH_EMPTY";
    case DiagnosticCode::kZoneApproximated:
      return "ZONE_APPROXIMATED";
    case DiagnosticCode::kConfigurationFlip:
      return "CONFIGURATION_FLIP";
    case DiagnosticCode::kCartesianDeviation:
      return "CARTESIAN_DEVIATION";
    case DiagnosticCode::kMimicJoint:
      return "MIMIC_JOINT";
    case DiagnosticCode::kJerkLimit:
      return "JERK_LIMIT";
    case DiagnosticCode::kSpeedReduced:
      return "SPEED_REDUCED";
    case DiagnosticCode::kZoneReduced:
      return "ZONE_REDUCED";
    case DiagnosticCode::kConfigurationChange:
      return "CONFIGURATION_CHANGE";
    case DiagnosticCode::kCollision:
      return "COLLISION";
    case DiagnosticCode::kPlanningFailed:
      return "PLANNING_FAILED";
    case DiagnosticCode::kTorqueLimit:
      return "TORQUE_LIMIT";
    case DiagnosticCode::kDynamicsUnavailable:
      return "DYNAMICS_UNAVAILABLE";
  }
  return "UNKNOWN";
}

}  // namespace motion
