#include "core/collision/allowed_collisions.h"

#include <map>

#include "absl/strings/str_cat.h"

namespace motion {

absl::StatusOr<AllowedCollisions> AllowedCollisions::Build(const RobotCollisionModel& robot,
                                                           const CollisionScene& scene,
                                                           const std::vector<AllowedPair>& pairs,
                                                           absl::string_view field) {
  AllowedCollisions allowed;
  allowed.links_ = static_cast<int>(robot.links().size());
  allowed.objects_ = static_cast<int>(scene.objects().size());
  std::map<std::string, int, std::less<>> link_index, object_index;
  for (int i = 0; i < allowed.links_; ++i) link_index.emplace(robot.links()[i].link, i);
  for (int o = 0; o < allowed.objects_; ++o) object_index.emplace(scene.objects()[o].id, o);
  auto find = [](const std::map<std::string, int, std::less<>>& index, const std::string& name) {
    auto it = index.find(name);
    return it == index.end() ? -1 : it->second;
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string where = absl::StrCat(field, "[", i, "]");
    const AllowedPair& p = pairs[i];
    const int la = find(link_index, p.a), lb = find(link_index, p.b);
    const int oa = find(object_index, p.a), ob = find(object_index, p.b);
    if (la < 0 && lb < 0) {
      const std::string& unknown = oa < 0 ? p.a : p.b;
      const char* which = oa < 0 ? ".a" : ".b";
      if (oa >= 0 && ob >= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": '", p.a, "' and '", p.b,
                         "' are both scene objects; objects never collide with each other"));
      }
      return absl::InvalidArgumentError(
          absl::StrCat(where, which, ": '", unknown,
                       "' is not a link of the checked chain (RobotInfo.link_geometry) nor an "
                       "object of the scene"));
    }
    if (la >= 0 && lb >= 0) {
      if (la == lb) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": a and b are the same link '", p.a, "'"));
      }
      if (allowed.link_link_.empty()) {
        allowed.link_link_.assign(static_cast<std::size_t>(allowed.links_) * allowed.links_, 0);
      }
      allowed.link_link_[la * allowed.links_ + lb] = 1;
      allowed.link_link_[lb * allowed.links_ + la] = 1;
      continue;
    }
    const int link = la >= 0 ? la : lb;
    const int object = la >= 0 ? ob : oa;
    if (object < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, la >= 0 ? ".b" : ".a", ": '", la >= 0 ? p.b : p.a,
                       "' is not a link of the checked chain (RobotInfo.link_geometry) nor an "
                       "object of the scene"));
    }
    if (allowed.link_object_.empty()) {
      allowed.link_object_.assign(static_cast<std::size_t>(allowed.links_) * allowed.objects_, 0);
    }
    allowed.link_object_[static_cast<std::size_t>(link) * allowed.objects_ + object] = 1;
  }
  return allowed;
}

}  // namespace motion
