#include "server/convert/dynamics_conversion.h"

namespace motion::server {

absl::StatusOr<Payload> PayloadFromProto(const v1::Payload& in, absl::string_view field) {
  Payload out;
  out.mass = in.mass();
  out.center_of_mass =
      Eigen::Vector3d(in.center_of_mass().x(), in.center_of_mass().y(), in.center_of_mass().z());
  const v1::Inertia& i = in.inertia();
  out.inertia << i.ixx(), i.ixy(), i.ixz(), i.ixy(), i.iyy(), i.iyz(), i.ixz(), i.iyz(), i.izz();
  if (absl::Status status = CheckPayload(out, field); !status.ok()) return status;
  return out;
}

absl::StatusOr<Eigen::Vector3d> GravityFromProto(bool present, const v1::Vector3& in,
                                                 absl::string_view field) {
  if (!present) return kDefaultGravity;
  const Eigen::Vector3d gravity(in.x(), in.y(), in.z());
  if (absl::Status status = CheckGravity(gravity, field); !status.ok()) return status;
  return gravity;
}

}  // namespace motion::server
