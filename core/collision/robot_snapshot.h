#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief One robot's collision shapes placed in a frame it shares with
/// other robots (a cell's), at one joint vector, with what the motion
/// bound needs. Filled by RobotPlacer::Place, refilled in place.
class RobotSnapshot {
 public:
  RobotSnapshot();
  ~RobotSnapshot();
  RobotSnapshot(RobotSnapshot&&) noexcept;
  RobotSnapshot& operator=(RobotSnapshot&&) noexcept;

  /// Axis-aligned box of every shape in the shared frame (empty without
  /// shapes).
  const Eigen::AlignedBox3d& box() const;

  struct Impl;
  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

/// \brief Places one robot, its base at X_CB in the shared frame C, at
/// joint vectors, and bounds how far its links move between two of them.
/// Holds references to what it is built from and writes FK into `data`;
/// one per robot per thread.
class RobotPlacer {
 public:
  RobotPlacer(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
              const Eigen::Isometry3d& X_CB);
  ~RobotPlacer();
  RobotPlacer(const RobotPlacer&) = delete;
  RobotPlacer& operator=(const RobotPlacer&) = delete;

  void Place(const Eigen::VectorXd& q, RobotSnapshot& snapshot);

  /// Per link of the collision model (RobotCollisionModel::links), a bound
  /// (m) on how far any of its points moves on the straight joint motion
  /// from qa to qb (snapshots a, b placed at them): the conservative
  /// advancement bound of trajectory_collisions.h. Returns the largest.
  double LinkMotionBounds(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb,
                          const RobotSnapshot& a, const RobotSnapshot& b,
                          std::vector<double>& bounds);

  int link_count() const { return static_cast<int>(robot_.links().size()); }
  const std::string& link_name(int link) const { return robot_.links()[link].link; }

 private:
  struct Impl;
  const RobotCollisionModel& robot_;
  std::unique_ptr<Impl> impl_;
};

/// \brief A link of one robot within the margin of a link of another.
struct LinkPairContact {
  int link_a = 0, link_b = 0;
  double depth = 0.0;  ///< m, margin - signed distance
};

/// \brief Distances between two robots' snapshots in the same frame:
/// `distances[i * links_b + j]` bounds link i of `a` to link j of `b` from
/// below (signed, m; +inf for a link without shapes): exact where their
/// boxes are nearer than `threshold` + `margin`, and for the nearest pair
/// overall; `contacts` every link pair closer than `margin`. Returns the
/// smallest distance (exact).
double LinkPairDistances(const RobotSnapshot& a, const RobotSnapshot& b, double margin,
                         double threshold, std::vector<double>& distances,
                         std::vector<LinkPairContact>& contacts);

/// \brief Smallest signed distance (m) from the snapshot's shapes to the
/// objects of `scene`, given in the snapshot's frame; +inf for an empty
/// scene.
double SceneDistance(const RobotSnapshot& snapshot, const CollisionScene& scene);

}  // namespace motion
