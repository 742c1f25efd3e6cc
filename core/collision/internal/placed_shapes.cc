#include "core/collision/internal/placed_shapes.h"

#include <optional>

#include "core/collision/internal/fast_pair.h"
#include "core/collision/internal/fcl_geometry.h"

namespace motion {

void PlacedRobot::Place(const ChainModel& chain, const ChainData& data,
                        const RobotCollisionModel& robot, const Eigen::Isometry3d* X_WB) {
  const std::vector<LinkCollisionGeometry>& links = robot.links();
  const RobotCollisionModel::Engine& engine = robot.engine();
  first_.clear();
  shapes_.clear();
  first_.reserve(links.size() + 1);
  std::size_t count = 0;
  for (const LinkCollisionGeometry& l : links) count += l.shapes.size();
  shapes_.reserve(count);
  for (std::size_t i = 0; i < links.size(); ++i) {
    first_.push_back(static_cast<int>(shapes_.size()));
    if (links[i].shapes.empty()) continue;
    const Eigen::Isometry3d X_BL = ChainLinkFrame(chain, data, links[i].chain_link);
    const Eigen::Isometry3d frame = X_WB ? *X_WB * X_BL : X_BL;
    for (std::size_t s = 0; s < links[i].shapes.size(); ++s) {
      shapes_.push_back(PlacePrimitive(links[i].shapes[s].shape, frame * links[i].shapes[s].origin,
                                       engine.radius[i][s], &engine.geometry[i][s]));
    }
  }
  first_.push_back(static_cast<int>(shapes_.size()));
}

const fcl::CollisionObjectd& FclPlacements::For(const Primitive& p) {
  if (p.fcl) return *p.fcl;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == &p) return *objects_[i];
  }
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  pose.linear() = p.rotation;
  pose.translation() = p.centre;
  keys_.push_back(&p);
  objects_.push_back(std::make_unique<fcl::CollisionObjectd>(*p.geometry, pose));
  objects_.back()->computeAABB();
  return *objects_.back();
}

void FclPlacements::Clear() {
  keys_.clear();
  objects_.clear();
}

PairOutcome TestShapes(CollisionEngine engine, const Primitive& a, const Primitive& b,
                       bool want_distance, double margin, FclPlacements& fcl) {
  if (engine == CollisionEngine::kFast) {
    if (std::optional<PairOutcome> fast = FastPair(a, b, want_distance, margin)) return *fast;
  }
  return TestPair(fcl.For(a), fcl.For(b), want_distance, margin);
}

}  // namespace motion
