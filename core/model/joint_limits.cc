#include "core/model/joint_limits.h"

namespace motion {

const char* JointTypeName(JointType type) {
  switch (type) {
    case JointType::kRevolute:
      return "revolute";
    case JointType::kContinuous:
      return "continuous";
    case JointType::kPrismatic:
      return "prismatic";
  }
  return "unknown";
}

}  // namespace motion
