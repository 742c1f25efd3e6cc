#include "core/cell/internal/robot_alone_check.h"

#include <algorithm>
#include <memory>

#include "core/cell/internal/contact_intervals.h"
#include "core/collision/trajectory_collisions.h"

namespace motion {

absl::StatusOr<std::vector<CellContact>> RobotAloneContacts(
    const CellRobotProgram& robot, const CollisionScene& scene, const CellOptions& options,
    double cell_end, const std::function<bool()>& cancelled) {
  // X_BO = X_CB^-1 X_CO: the scene where the robot's own check expects it.
  const Eigen::Isometry3d X_BC = robot.X_CB.inverse();
  std::vector<CollisionObject> objects = scene.objects();
  for (CollisionObject& o : objects) o.pose = Pose::FromIsometry(X_BC * o.pose.ToIsometry());
  absl::StatusOr<std::shared_ptr<const CollisionScene>> in_base =
      CollisionScene::Build(std::move(objects));
  if (!in_base.ok()) return in_base.status();
  TrajectoryCollisionOptions o;
  o.self_collision = robot.self_collision;
  o.safety_margin = options.safety_margin;
  o.resolution = options.resolution;
  ChainData data(*robot.chain);
  const std::vector<TrajectoryContact> found = FindTrajectoryCollisions(
      *robot.chain, data, *robot.collision, **in_base, robot.times, robot.positions, o, cancelled);
  if (cancelled && cancelled()) return absl::CancelledError("cell check cancelled");
  const std::vector<LinkCollisionGeometry>& links = robot.collision->links();
  std::vector<CellContact> contacts;
  for (const TrajectoryContact& c : found) {
    const bool self = std::any_of(links.begin(), links.end(), [&](const LinkCollisionGeometry& l) {
      return l.link == c.other;
    });
    contacts.push_back(RobotContact(robot, c, self, cell_end));
  }
  return contacts;
}

}  // namespace motion
