#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <utility>

#include "core/ik/ik_scratch.h"
#include "core/ik/kdl_ik_baselines.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Everything one thread keeps for one chain: FK buffers, IK scratch
/// and (built on first use) the KDL baseline solvers.
struct ChainWorkspace {
  explicit ChainWorkspace(std::shared_ptr<const ChainModel> model)
      : chain(std::move(model)), data(*chain), ik(chain->dof()) {}

  KdlIkSolvers& Kdl();

  std::shared_ptr<const ChainModel> chain;  ///< keeps the chain alive while cached
  ChainData data;
  IkScratch ik;

 private:
  std::unique_ptr<KdlIkSolvers> kdl_;
};

/// \brief One solver thread's cache of ChainWorkspaces. Never shared between
/// threads: KDL solvers are not thread-safe and the buffers are scratch space.
///
/// Holds a shared_ptr to each chain it serves, so a chain evicted from the
/// registry stays valid while a worker still uses it. Least recently used
/// entries are dropped beyond `capacity`.
class KinematicsWorkspace {
 public:
  explicit KinematicsWorkspace(std::size_t capacity = 32) : capacity_(capacity) {}

  ChainWorkspace& For(const std::shared_ptr<const ChainModel>& chain);
  ChainData& DataFor(const std::shared_ptr<const ChainModel>& chain) { return For(chain).data; }

  std::size_t size() const { return entries_.size(); }

 private:
  std::size_t capacity_;
  std::list<std::unique_ptr<ChainWorkspace>> entries_;  ///< most recent first
};

}  // namespace motion
