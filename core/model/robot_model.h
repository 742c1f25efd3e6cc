#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include <kdl/tree.hpp>

#include "absl/status/statusor.h"
#include "core/model/chain_model.h"
#include "core/model/default_chain.h"
#include "core/model/joint_description.h"
#include "core/model/link_collision.h"
#include "core/model/model_limits.h"

namespace motion {

/// \brief Everything motiond knows about one URDF: its tree, joints, the
/// default chain and the chains built so far.
///
/// Immutable once built, except for the internal chain cache (guarded), so
/// it is shared between threads as `std::shared_ptr<const RobotModel>`.
class RobotModel {
 public:
  /// \brief Parses and validates `urdf_text` (see ParseUrdf) and builds the
  /// default chain, so a model that loads can always be used.
  static absl::StatusOr<std::shared_ptr<const RobotModel>> FromUrdf(absl::string_view urdf_text,
                                                                    const ModelLimits& limits = {});

  const std::string& name() const { return name_; }
  const KDL::Tree& tree() const { return tree_; }
  const DefaultChain& default_chain() const { return default_chain_; }
  const JointDescriptions& joints() const { return joints_; }
  const std::vector<std::string>& link_names() const { return link_names_; }
  /// \brief The URDF's `<collision>` elements per link.
  const LinkCollisions& link_collisions() const { return link_collisions_; }
  std::size_t urdf_bytes() const { return urdf_bytes_; }

  /// \brief Approximate heap footprint, for the registry's memory bound.
  std::size_t memory_bytes() const { return memory_bytes_; }

  /// \brief The chain base -> tip (empty names: the default chain's). Built
  /// on first use and cached (up to ModelLimits::max_cached_chains pairs).
  absl::StatusOr<std::shared_ptr<const ChainModel>> Chain(absl::string_view base_link = {},
                                                          absl::string_view tip_link = {}) const;

 private:
  RobotModel() = default;

  std::string name_;
  KDL::Tree tree_;
  JointDescriptions joints_;
  std::vector<std::string> link_names_;
  LinkCollisions link_collisions_;
  DefaultChain default_chain_;
  ModelLimits limits_;
  std::size_t urdf_bytes_ = 0;
  std::size_t memory_bytes_ = 0;

  mutable std::mutex chains_mutex_;
  mutable std::map<std::pair<std::string, std::string>, std::shared_ptr<const ChainModel>> chains_;
};

}  // namespace motion
