#include "core/model/robot_model.h"

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/model/internal/urdf_collisions.h"
#include "core/model/internal/urdf_parsing.h"
#include "core/model/internal/urdf_to_kdl_tree.h"

namespace motion {

absl::StatusOr<std::shared_ptr<const RobotModel>> RobotModel::FromUrdf(absl::string_view urdf_text,
                                                                       const ModelLimits& limits) {
  absl::StatusOr<std::shared_ptr<urdf::ModelInterface>> parsed = ParseUrdf(urdf_text, limits);
  if (!parsed.ok()) return parsed.status();
  absl::StatusOr<KDL::Tree> tree = UrdfToKdlTree(**parsed);
  if (!tree.ok()) return tree.status();

  std::shared_ptr<RobotModel> model(new RobotModel());
  model->name_ = (*parsed)->getName();
  model->tree_ = std::move(*tree);
  model->joints_ = DescribeJoints(**parsed);
  for (const auto& [name, link] : (*parsed)->links_) model->link_names_.push_back(name);
  model->link_collisions_ = ReadLinkCollisions(**parsed);
  model->default_chain_ = ChooseDefaultChain(**parsed, model->joints_);
  model->limits_ = limits;
  model->urdf_bytes_ = urdf_text.size();
  // A KDL segment with its strings and maps costs roughly 1 KiB; the URDF
  // text itself is not kept.
  model->memory_bytes_ = sizeof(RobotModel) + 1024 * (model->link_names_.size() + 1) +
                         256 * model->joints_.size() +
                         (sizeof(UrdfCollision) + 64) * model->link_collisions_.size();

  if (model->default_chain_.tip_link == model->default_chain_.base_link) {
    return absl::InvalidArgumentError(absl::StrCat(
        "urdf: no movable (revolute, continuous or prismatic) joint below ",
        QuoteUntrusted(model->default_chain_.base_link), ": there is no chain to compute"));
  }
  // Build the default chain now: a URDF whose arm chain cannot be built is
  // refused at registration, not at the first FK request — and the fault is
  // the URDF's, not a base/tip the caller never sent.
  if (auto chain = model->Chain(); !chain.ok()) {
    return absl::Status(chain.status().code(),
                        absl::StrCat("urdf: default chain: ", chain.status().message()));
  }
  return std::shared_ptr<const RobotModel>(std::move(model));
}

absl::StatusOr<std::shared_ptr<const ChainModel>> RobotModel::Chain(
    absl::string_view base_link, absl::string_view tip_link) const {
  std::pair<std::string, std::string> key(
      base_link.empty() ? default_chain_.base_link : std::string(base_link),
      tip_link.empty() ? default_chain_.tip_link : std::string(tip_link));
  {
    std::lock_guard<std::mutex> lock(chains_mutex_);
    if (auto it = chains_.find(key); it != chains_.end()) return it->second;
  }
  auto chain = ChainModel::Build(tree_, joints_, key.first, key.second, limits_);
  if (!chain.ok()) return chain.status();
  std::lock_guard<std::mutex> lock(chains_mutex_);
  if (static_cast<int>(chains_.size()) < limits_.max_cached_chains) {
    chains_.emplace(std::move(key), *chain);
  }
  return *chain;
}

}  // namespace motion
