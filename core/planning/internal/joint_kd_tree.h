#pragma once

#include <vector>

#include <Eigen/Core>

namespace motion {

/// \brief Joint vectors of one dimension, in insertion order, with an exact
/// nearest-neighbour query (Euclidean joint norm) through a k-d tree that
/// splits on the coordinates in turn (Bentley 1975). Points are only added,
/// never moved or removed, which is all a growing RRT needs; random samples
/// keep it balanced enough without rebuilding.
///
/// Nearest() returns what a linear scan in insertion order keeping the
/// first strictly nearer point would: the same distances, summed in the
/// same order, and the lowest index among exact ties, so a search using it
/// is bit for bit the search that scanned.
class JointKdTree {
 public:
  explicit JointKdTree(int dof) : dof_(dof) {}

  /// Adds q (dof values); returns its index.
  int Add(const double* q);
  int size() const { return static_cast<int>(left_.size()); }
  Eigen::Map<const Eigen::VectorXd> At(int i) const {
    return Eigen::Map<const Eigen::VectorXd>(values_.data() + static_cast<std::size_t>(i) * dof_,
                                             dof_);
  }
  /// Index of the point nearest q; the tree must not be empty.
  int Nearest(const double* q) const;

 private:
  double SquaredDistance(int i, const double* q) const;

  int dof_;
  std::vector<double> values_;     ///< dof per point
  std::vector<int> left_, right_;  ///< children (-1: none); node i splits on i's depth mod dof
  std::vector<int> axis_;
  struct Pending {
    int node;
    double lower;  ///< squared distance no point below node can beat
  };
  mutable std::vector<Pending> stack_;  ///< Nearest()'s, kept to not allocate per query
};

}  // namespace motion
