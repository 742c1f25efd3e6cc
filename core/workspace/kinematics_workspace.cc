#include "core/workspace/kinematics_workspace.h"

namespace motion {

KdlIkSolvers& ChainWorkspace::Kdl() {
  if (!kdl_) kdl_ = std::make_unique<KdlIkSolvers>(*chain);
  return *kdl_;
}

ChainWorkspace& KinematicsWorkspace::For(const std::shared_ptr<const ChainModel>& chain) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if ((*it)->chain == chain) {
      entries_.splice(entries_.begin(), entries_, it);
      return *entries_.front();
    }
  }
  entries_.push_front(std::make_unique<ChainWorkspace>(chain));
  if (entries_.size() > capacity_) entries_.pop_back();
  return *entries_.front();
}

}  // namespace motion
