#include "core/collision/internal/fcl_geometry.h"

#include <algorithm>
#include <optional>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include "core/collision/internal/round_shapes.h"

namespace motion {

std::shared_ptr<fcl::CollisionGeometryd> ToFclGeometry(const CollisionShape& s) {
  switch (s.kind) {
    case CollisionShape::Kind::kBox:
      return std::make_shared<fcl::Boxd>(s.box_size.x(), s.box_size.y(), s.box_size.z());
    case CollisionShape::Kind::kCylinder:
      return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
    case CollisionShape::Kind::kSphere:
      return std::make_shared<fcl::Sphered>(s.radius);
    case CollisionShape::Kind::kCapsule:
      return std::make_shared<fcl::Capsuled>(s.radius, s.length);
    case CollisionShape::Kind::kMesh: {
      auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
      model->beginModel();
      const std::vector<Eigen::Vector3d>& v = s.mesh->vertices;
      for (std::size_t i = 0; i + 2 < v.size(); i += 3) {
        model->addTriangle(v[i].cwiseProduct(s.mesh_scale), v[i + 1].cwiseProduct(s.mesh_scale),
                           v[i + 2].cwiseProduct(s.mesh_scale));
      }
      model->endModel();
      return model;
    }
  }
  return nullptr;
}

// Contacts gathered from one mesh pair for its depth: enough to hold every
// triangle of a link-sized overlap of a coarse collision mesh, and bounded.
constexpr std::size_t kMaxMeshContacts = 256;

PairOutcome TestPair(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b,
                     bool want_distance, double margin) {
  if (std::optional<PairOutcome> round = RoundShapesPair(a, b, margin)) return *round;
  PairOutcome out;
  // A mesh touches through many triangles, each with its own depth (the
  // first found is often an edge just grazed): the deepest of them.
  const bool mesh = a.getObjectType() == fcl::OT_BVH || b.getObjectType() == fcl::OT_BVH;
  fcl::CollisionRequestd request(mesh ? kMaxMeshContacts : 1, true);
  request.gjk_solver_type = fcl::GST_INDEP;
  fcl::CollisionResultd result;
  fcl::collide(&a, &b, request, result);
  if (result.isCollision()) {
    double penetration = 0.0;
    for (std::size_t c = 0; c < result.numContacts(); ++c) {
      penetration = std::max(penetration, result.getContact(c).penetration_depth);
    }
    if (mesh || !(penetration > 0)) {
      // FCL's own GJK leaves the depth at 0 for some pairs (capsule-box)
      // and near 0 for every triangle against a shape; libccd's EPA
      // computes it.
      fcl::CollisionRequestd ccd_request(mesh ? kMaxMeshContacts : 1, true);
      ccd_request.gjk_solver_type = fcl::GST_LIBCCD;
      fcl::CollisionResultd ccd_result;
      fcl::collide(&a, &b, ccd_request, ccd_result);
      for (std::size_t c = 0; c < ccd_result.numContacts(); ++c) {
        penetration = std::max(penetration, ccd_result.getContact(c).penetration_depth);
      }
    }
    out.in_contact = true;
    out.distance = -penetration;
    out.depth = margin + penetration;
    return out;
  }
  if (!want_distance && margin <= 0) return out;
  fcl::DistanceRequestd distance_request;
  distance_request.gjk_solver_type = fcl::GST_INDEP;
  // GJK's default 1e-6 stops up to ~4 um short on cylinder-box pairs.
  distance_request.distance_tolerance = 1e-8;
  fcl::DistanceResultd distance_result;
  fcl::distance(&a, &b, distance_request, distance_result);
  return OutcomeAt(std::max(0.0, distance_result.min_distance), margin);
}

}  // namespace motion
