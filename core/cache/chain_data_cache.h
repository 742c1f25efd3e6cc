#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <utility>

#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief One solver thread's IkData for each chain it has served, least
/// recently used dropped beyond `capacity`. Never shared between threads.
///
/// Holds a shared_ptr to each chain, so a chain evicted from the registry
/// stays valid while a worker still computes with it.
class ChainDataCache {
 public:
  explicit ChainDataCache(std::size_t capacity = 32) : capacity_(capacity) {}

  /// The data of `chain` on this thread, made on first use.
  IkData& For(const std::shared_ptr<const ChainModel>& chain);

  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    explicit Entry(std::shared_ptr<const ChainModel> model)
        : chain(std::move(model)), data(*chain) {}
    std::shared_ptr<const ChainModel> chain;  ///< keeps the chain alive while cached
    IkData data;
  };

  std::size_t capacity_;
  std::list<std::unique_ptr<Entry>> entries_;  ///< most recent first
};

}  // namespace motion
