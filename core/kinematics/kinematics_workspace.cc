#include "core/kinematics/kinematics_workspace.h"

namespace motion {

ChainData& KinematicsWorkspace::DataFor(const std::shared_ptr<const ChainModel>& chain) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == chain) {
      entries_.splice(entries_.begin(), entries_, it);  // most recent first
      return *entries_.front().second;
    }
  }
  entries_.emplace_front(chain, std::make_unique<ChainData>(*chain));
  if (entries_.size() > capacity_) entries_.pop_back();
  return *entries_.front().second;
}

}  // namespace motion
