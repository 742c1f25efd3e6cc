#include "core/motion/trajectory_resampling.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include "absl/strings/str_cat.h"
#include "core/motion/joint_samples.h"

namespace motion {
namespace {

// The spline's second derivatives M at the knots, one column per joint.
//
// Interior knots: continuity of the first derivative,
//   h[i-1] M[i-1] + 2 (h[i-1] + h[i]) M[i] + h[i] M[i+1] = 6 (s[i] - s[i-1]),
// with h the spacings and s the chord slopes. Ends (not-a-knot): the third
// derivative is continuous at the second and the last but one knot,
//   h[1] M[0] - (h[0] + h[1]) M[1] + h[0] M[2] = 0, and its mirror.
// One sparse LU serves every joint: the matrix depends on the times only.
Eigen::MatrixXd NotAKnotSecondDerivatives(const std::vector<double>& t, const Eigen::MatrixXd& y) {
  const int n = static_cast<int>(t.size());
  std::vector<double> h(n - 1);
  for (int i = 0; i + 1 < n; ++i) h[i] = t[i + 1] - t[i];
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(3 * n);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, y.cols());
  entries.emplace_back(0, 0, h[1]);
  entries.emplace_back(0, 1, -(h[0] + h[1]));
  entries.emplace_back(0, 2, h[0]);
  for (int i = 1; i + 1 < n; ++i) {
    entries.emplace_back(i, i - 1, h[i - 1]);
    entries.emplace_back(i, i, 2.0 * (h[i - 1] + h[i]));
    entries.emplace_back(i, i + 1, h[i]);
    rhs.row(i) = 6.0 * ((y.row(i + 1) - y.row(i)) / h[i] - (y.row(i) - y.row(i - 1)) / h[i - 1]);
  }
  entries.emplace_back(n - 1, n - 3, h[n - 2]);
  entries.emplace_back(n - 1, n - 2, -(h[n - 3] + h[n - 2]));
  entries.emplace_back(n - 1, n - 1, h[n - 3]);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(a);
  return lu.solve(rhs);
}

// M for fewer than four knots: the parabola's constant second derivative
// (twice the second divided difference), or none.
Eigen::MatrixXd LowOrderSecondDerivatives(const std::vector<double>& t, const Eigen::MatrixXd& y) {
  const int n = static_cast<int>(t.size());
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, y.cols());
  if (n == 3) {
    const Eigen::RowVectorXd second_difference =
        ((y.row(2) - y.row(1)) / (t[2] - t[1]) - (y.row(1) - y.row(0)) / (t[1] - t[0])) /
        (t[2] - t[0]);
    for (int i = 0; i < 3; ++i) m.row(i) = 2.0 * second_difference;
  }
  return m;
}

}  // namespace

absl::StatusOr<Trajectory> ResampleJointTrajectory(int dof, const std::vector<double>& time,
                                                   const std::vector<double>& positions,
                                                   double sample_time, std::size_t max_points) {
  if (auto status = CheckJointSamples(dof, time, positions); !status.ok()) return status;
  if (!(std::isfinite(sample_time) && sample_time > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("sample_time: must be a finite number of seconds > 0, got ", sample_time));
  }
  const double duration = time.back() - time.front();
  // ceil, forgiving the rounding of a duration that is a multiple of dt.
  const double intervals = std::ceil(duration / sample_time - 1e-9);
  if (intervals + 1 > static_cast<double>(max_points)) {
    return absl::InvalidArgumentError(absl::StrCat("sample_time: ", sample_time, " s over ",
                                                   duration, " s makes ", intervals + 1,
                                                   " samples; the limit is ", max_points));
  }
  const int n = static_cast<int>(time.size());
  Eigen::MatrixXd y(n, dof);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < dof; ++j) y(k, j) = positions[static_cast<std::size_t>(k) * dof + j];
  }
  const Eigen::MatrixXd m =
      n >= 4 ? NotAKnotSecondDerivatives(time, y) : LowOrderSecondDerivatives(time, y);

  Trajectory out;
  out.dof = dof;
  const std::size_t count = static_cast<std::size_t>(intervals) + 1;
  out.time.reserve(count);
  out.positions.reserve(count * dof);
  out.velocities.reserve(count * dof);
  out.accelerations.reserve(count * dof);
  int i = 0;  // the knot interval [t_i, t_i+1] holding the grid time
  for (std::size_t k = 0; k < count; ++k) {
    const double t = time.front() + static_cast<double>(k) * sample_time;
    out.time.push_back(t);
    if (n == 1 || t >= time.back()) {  // at (or held past) the last sample
      for (int j = 0; j < dof; ++j) {
        out.positions.push_back(y(n - 1, j));
        // At the last knot itself the spline's own rates; past it, at rest.
        const bool at_knot = n > 1 && t == time.back();
        const double h = at_knot ? time[n - 1] - time[n - 2] : 0.0;
        out.velocities.push_back(at_knot ? (y(n - 1, j) - y(n - 2, j)) / h +
                                               h * (2.0 * m(n - 1, j) + m(n - 2, j)) / 6.0
                                         : 0.0);
        out.accelerations.push_back(at_knot ? m(n - 1, j) : 0.0);
      }
      continue;
    }
    while (i + 2 < n && t >= time[i + 1]) ++i;
    const double h = time[i + 1] - time[i];
    const double a = (time[i + 1] - t) / h, b = (t - time[i]) / h;  // a + b = 1
    for (int j = 0; j < dof; ++j) {
      const double m0 = m(i, j), m1 = m(i + 1, j), y0 = y(i, j), y1 = y(i + 1, j);
      out.positions.push_back(a * y0 + b * y1 +
                              ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6.0);
      out.velocities.push_back((y1 - y0) / h +
                               ((1.0 - 3.0 * a * a) * m0 + (3.0 * b * b - 1.0) * m1) * h / 6.0);
      out.accelerations.push_back(a * m0 + b * m1);
    }
  }
  return out;
}

}  // namespace motion
