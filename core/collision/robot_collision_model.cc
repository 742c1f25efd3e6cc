#include "core/collision/robot_collision_model.h"

#include <cmath>
#include <random>

#include "core/collision/collision_checker.h"
#include "core/collision/internal/fcl_geometry.h"
#include "core/kinematics/chain_data.h"

namespace motion {
namespace {

// The stand-in for a mesh that was not sent: a capsule of
// kApproximationRadius from `start` to `end` (a sphere at `start` when they
// coincide), in the frame the shapes are placed in.
PlacedShape CapsuleBetween(const Eigen::Vector3d& start, const Eigen::Vector3d& end) {
  PlacedShape placed;
  const Eigen::Vector3d axis = end - start;
  const double length = axis.norm();
  placed.origin.translation() = start;
  if (length < 1e-3) {
    placed.shape = CollisionShape::Sphere(RobotCollisionModel::kApproximationRadius);
    return placed;
  }
  placed.origin.translation() = 0.5 * (start + end);
  placed.origin.linear() =
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis / length)
          .toRotationMatrix();
  placed.shape = CollisionShape::Capsule(RobotCollisionModel::kApproximationRadius, length);
  return placed;
}

// A chain link's stand-in reaches from its origin to the next joint's (or,
// after the last joint, the tip's), in the link frame.
Eigen::Vector3d NextJointOrigin(const ChainModel& chain, int i) {
  const ChainLink& link = chain.links[i];
  const int next = link.after_joint + 1;
  const Eigen::Vector3d next_origin_in_joint_frame = next < static_cast<int>(chain.joints.size())
                                                         ? chain.joints[next].origin.translation()
                                                         : chain.tip_offset.translation();
  return link.offset.inverse() * next_origin_in_joint_frame;
}

// The shapes of URDF link `name`, placed in the frame of chain link
// `chain_link` (`offset`: the URDF link's frame in it), with the stand-in
// from `offset`'s origin to `stand_in_end` for meshes not sent.
LinkCollisionGeometry LinkGeometry(const std::string& name, int chain_link,
                                   const Eigen::Isometry3d& offset,
                                   const Eigen::Vector3d& stand_in_end,
                                   const LinkCollisions& collisions, const MeshSupply& meshes) {
  LinkCollisionGeometry g;
  g.link = name;
  g.chain_link = chain_link;
  if (auto it = collisions.find(g.link); it != collisions.end()) {
    for (const UrdfCollision& c : it->second) {
      const Eigen::Isometry3d origin = offset * c.origin;
      switch (c.kind) {
        case UrdfCollision::Kind::kBox:
          g.shapes.push_back({origin, CollisionShape::Box(c.box_size)});
          break;
        case UrdfCollision::Kind::kCylinder:
          g.shapes.push_back({origin, CollisionShape::Cylinder(c.radius, c.length)});
          break;
        case UrdfCollision::Kind::kSphere:
          g.shapes.push_back({origin, CollisionShape::Sphere(c.radius)});
          break;
        case UrdfCollision::Kind::kMesh:
          if (auto m = meshes.find(c.mesh_filename); m != meshes.end() && m->second) {
            g.shapes.push_back({origin, CollisionShape::Mesh(m->second, c.mesh_scale)});
          } else {
            g.missing_meshes.push_back(c.mesh_filename);
          }
          break;
      }
    }
  }
  if (!g.missing_meshes.empty()) {
    g.shapes.push_back(CapsuleBetween(offset.translation(), stand_in_end));
  }
  g.source = g.shapes.empty() ? "none" : g.missing_meshes.empty() ? "urdf" : "approximated";
  return g;
}

// Seeded random joints within limits (unbounded joints in [-pi, pi]).
Eigen::VectorXd RandomJoints(const ChainModel& chain, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::VectorXd q(chain.dof());
  for (int j = 0; j < chain.dof(); ++j) {
    const JointLimits& l = chain.dof_limits[j];
    const double lo = l.bounded ? l.lower : -M_PI, hi = l.bounded ? l.upper : M_PI;
    q[j] = lo + unit(rng) * (hi - lo);
  }
  return q;
}

}  // namespace

bool RobotCollisionModel::has_geometry() const {
  for (const LinkCollisionGeometry& l : links_) {
    if (!l.shapes.empty()) return true;
  }
  return false;
}

std::shared_ptr<const RobotCollisionModel> RobotCollisionModel::Build(
    const ChainModel& chain, const LinkCollisions& collisions, const MeshSupply& meshes,
    const std::vector<RigidAttachment>& attachments) {
  auto model = std::make_shared<RobotCollisionModel>();
  auto engine = std::make_shared<Engine>();
  std::vector<LinkCollisionGeometry> links;
  for (int i = 0; i < static_cast<int>(chain.links.size()); ++i) {
    links.push_back(LinkGeometry(chain.links[i].name, i, Eigen::Isometry3d::Identity(),
                                 NextJointOrigin(chain, i), collisions, meshes));
  }
  for (const RigidAttachment& a : attachments) {
    // The stand-in reaches to the farthest of its own children's origins
    // (a hand to its TCP frame), else it is a sphere about its origin.
    Eigen::Vector3d end = Eigen::Vector3d::Zero();
    for (const Eigen::Vector3d& c : a.child_origins) {
      if (c.norm() > end.norm()) end = c;
    }
    links.push_back(
        LinkGeometry(a.link, a.chain_link, a.offset, a.offset * end, collisions, meshes));
  }
  for (LinkCollisionGeometry& g : links) {
    engine->geometry.emplace_back();
    engine->radius.emplace_back();
    for (const PlacedShape& s : g.shapes) {
      engine->geometry.back().push_back(ToFclGeometry(s.shape));
      engine->radius.back().push_back(s.shape.BoundingRadius());
    }
    model->links_.push_back(std::move(g));
  }
  model->engine_ = engine;

  // Candidate self pairs: more than one movable joint apart.
  std::vector<std::pair<int, int>> candidates;
  const int n = static_cast<int>(model->links_.size());
  for (int a = 0; a < n; ++a) {
    if (model->links_[a].shapes.empty()) continue;
    for (int b = a + 1; b < n; ++b) {
      if (model->links_[b].shapes.empty()) continue;
      const int ja = chain.links[model->links_[a].chain_link].after_joint;
      const int jb = chain.links[model->links_[b].chain_link].after_joint;
      if (std::abs(ja - jb) <= 1) {
        model->disabled_.push_back({model->links_[a].link, model->links_[b].link, "adjacent"});
      } else {
        candidates.emplace_back(a, b);
      }
    }
  }
  // Sampling: which candidates collide always, which never.
  std::vector<int> hits(candidates.size(), 0);
  if (!candidates.empty()) {
    model->self_pairs_ = candidates;
    ChainData data(chain);
    std::mt19937_64 rng(1);
    CollisionQuery query;
    const auto scene = CollisionScene::Empty();
    for (int k = 0; k < kSelfCollisionSamples; ++k) {
      const CollisionVerdict v =
          CheckCollision(chain, data, *model, *scene, RandomJoints(chain, rng), query);
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        const std::string& la = model->links_[candidates[c].first].link;
        const std::string& lb = model->links_[candidates[c].second].link;
        for (const Contact& contact : v.contacts) {
          if (contact.link == la && contact.other == lb) {
            ++hits[c];
            break;
          }
        }
      }
    }
  }
  model->self_pairs_.clear();
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::string& la = model->links_[candidates[c].first].link;
    const std::string& lb = model->links_[candidates[c].second].link;
    if (hits[c] == kSelfCollisionSamples) {
      model->disabled_.push_back({la, lb, "always"});
      continue;
    }
    if (hits[c] == 0) model->never_seen_.emplace_back(la, lb);
    model->self_pairs_.push_back(candidates[c]);
  }
  return model;
}

}  // namespace motion
