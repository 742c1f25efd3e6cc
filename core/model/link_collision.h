#pragma once

#include <map>
#include <string>
#include <vector>

#include <Eigen/Geometry>

namespace motion {

/// \brief One `<collision>` element of a URDF link, as the file gives it
/// (sizes in metres, shapes about the element's origin in the link frame:
/// box full edge lengths, cylinder along z, centred).
struct UrdfCollision {
  enum class Kind { kBox, kCylinder, kSphere, kMesh };
  Kind kind = Kind::kBox;
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  Eigen::Vector3d box_size = Eigen::Vector3d::Zero();
  double radius = 0.0;  ///< cylinder, sphere
  double length = 0.0;  ///< cylinder
  std::string mesh_filename;
  Eigen::Vector3d mesh_scale = Eigen::Vector3d::Ones();
};

/// \brief Every link's collision elements, by link name (links without
/// any are absent). Elements whose sizes are not finite and positive are
/// not kept (the URDF still loads; the link is reported without them).
using LinkCollisions = std::map<std::string, std::vector<UrdfCollision>>;

}  // namespace motion
