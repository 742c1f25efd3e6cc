#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"

namespace motion {

/// \brief Two names a request allows to touch: a link of the checked
/// chain, and another such link or a scene object id (either order).
struct AllowedPair {
  std::string a, b;
};

/// \brief A request's allowed-collision matrix (MoveIt's ACM, per request):
/// pairs resolved once to indices, so the checker's inner loops test a bit
/// instead of comparing names. Pairs of links the model already never
/// checks (adjacent, always in collision) may be named too.
class AllowedCollisions {
 public:
  /// \brief InvalidArgument "field[i].a: ..." when a name is neither a link
  /// of `robot` (b: nor an object of `scene`), both name the same link, or
  /// both are scene objects.
  static absl::StatusOr<AllowedCollisions> Build(const RobotCollisionModel& robot,
                                                 const CollisionScene& scene,
                                                 const std::vector<AllowedPair>& pairs,
                                                 absl::string_view field);

  /// Indices into RobotCollisionModel::links() / CollisionScene::objects().
  bool LinkPair(int a, int b) const {
    return !link_link_.empty() && link_link_[a * links_ + b] != 0;
  }
  bool LinkObject(int link, int object) const {
    return !link_object_.empty() && link_object_[link * objects_ + object] != 0;
  }
  bool empty() const { return link_link_.empty() && link_object_.empty(); }

 private:
  int links_ = 0, objects_ = 0;
  std::vector<char> link_link_;    ///< links x links, symmetric; empty when none
  std::vector<char> link_object_;  ///< links x objects; empty when none
};

}  // namespace motion
