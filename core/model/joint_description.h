#pragma once

#include <map>
#include <optional>
#include <string>

#include <urdf_model/model.h>

namespace motion {

/// \brief What a chain needs to know about one URDF joint besides its
/// geometry (which lives in the KDL tree).
struct JointDescription {
  enum class Kind { kFixed, kRevolute, kContinuous, kPrismatic, kUnsupported };
  Kind kind = Kind::kFixed;
  std::string urdf_type;  ///< as written in the file, for messages
  double lower = 0.0;
  double upper = 0.0;
  double velocity = 0.0;  ///< 0 when the file gives none
  double effort = 0.0;    ///< N*m or N; 0 when the file gives none

  /// Set for mimic joints, already resolved through mimic-of-mimic links to
  /// the independent joint at the end: q = multiplier * q[master] + offset.
  struct Mimic {
    std::string master;
    double multiplier = 1.0;
    double offset = 0.0;
  };
  std::optional<Mimic> mimic;
};

using JointDescriptions = std::map<std::string, JointDescription, std::less<>>;

/// \brief Describes every joint of a validated urdfdom model (see ParseUrdf:
/// mimic targets exist and are acyclic).
JointDescriptions DescribeJoints(const urdf::ModelInterface& model);

}  // namespace motion
