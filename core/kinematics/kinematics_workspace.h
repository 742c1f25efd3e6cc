#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <utility>

#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief One solver thread's cache of ChainData (and, later, solvers) per
/// chain. Never shared between threads: KDL solvers are not thread-safe and
/// the buffers are scratch space.
///
/// Holds a shared_ptr to each chain it serves, so a chain evicted from the
/// registry stays valid while a worker still uses it. Least recently used
/// entries are dropped beyond `capacity`.
class KinematicsWorkspace {
 public:
  explicit KinematicsWorkspace(std::size_t capacity = 32) : capacity_(capacity) {}

  ChainData& DataFor(const std::shared_ptr<const ChainModel>& chain);

  std::size_t size() const { return entries_.size(); }

 private:
  std::size_t capacity_;
  std::list<std::pair<std::shared_ptr<const ChainModel>, std::unique_ptr<ChainData>>> entries_;
};

}  // namespace motion
