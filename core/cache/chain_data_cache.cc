#include "core/cache/chain_data_cache.h"

namespace motion {

IkData& ChainDataCache::For(const std::shared_ptr<const ChainModel>& chain) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if ((*it)->chain == chain) {
      entries_.splice(entries_.begin(), entries_, it);
      return entries_.front()->data;
    }
  }
  entries_.push_front(std::make_unique<Entry>(chain));
  if (entries_.size() > capacity_) entries_.pop_back();
  return entries_.front()->data;
}

}  // namespace motion
