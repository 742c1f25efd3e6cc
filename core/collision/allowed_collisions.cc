#include "core/collision/allowed_collisions.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"

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
    // `which` (".a" or ".b") names neither a link nor an object.
    auto unknown = [&](bool is_a) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, is_a ? ".a" : ".b", ": ", QuoteUntrusted(is_a ? p.a : p.b),
          " is not a link of the checked chain (RobotInfo.link_geometry) nor an object of the "
          "scene"));
    };
    if (la < 0 && lb < 0) {
      if (oa >= 0 && ob >= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": ", QuoteUntrusted(p.a), " and ", QuoteUntrusted(p.b),
                         " are both scene objects; objects never collide with each other"));
      }
      return unknown(oa < 0);
    }
    if (la >= 0 && lb >= 0) {
      if (la == lb) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": a and b are the same link ", QuoteUntrusted(p.a)));
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
    if (object < 0) return unknown(la < 0);
    if (allowed.link_object_.empty()) {
      allowed.link_object_.assign(static_cast<std::size_t>(allowed.links_) * allowed.objects_, 0);
    }
    allowed.link_object_[static_cast<std::size_t>(link) * allowed.objects_ + object] = 1;
  }
  return allowed;
}

}  // namespace motion
