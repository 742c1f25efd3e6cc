// URDF text -> RobotModel (the XML precheck, urdfdom, URDF -> KDL, the
// default chain) -> every candidate chain -> FK and Jacobian at a few joint
// vectors, as RegisterRobot and every request with an inline URDF do.
//
// Besides what the sanitizers catch, one property is checked: a refusal
// never carries a raw '%' (README "Hostile URDFs": text from the request is
// quoted, so no message can become a printf format further down the line).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "absl/strings/string_view.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/model/chain_model.h"
#include "core/model/robot_model.h"

namespace {

void RequireNoRawPercent(const absl::Status& status) {
  if (status.ok() || status.message().find('%') == absl::string_view::npos) return;
  std::fprintf(stderr, "raw '%%' in an error message: %.*s\n",
               static_cast<int>(status.message().size()), status.message().data());
  std::abort();
}

// Joint vectors that reach every branch FK has: zero, both limits, the
// middle, and a value past each limit (FK does not check limits). Continuous
// joints have infinite limits; they get +-pi instead.
std::vector<Eigen::VectorXd> JointVectors(const motion::ChainModel& chain) {
  const int dof = chain.dof();
  std::vector<Eigen::VectorXd> vectors(5, Eigen::VectorXd::Zero(dof));
  for (int i = 0; i < dof; ++i) {
    const motion::JointLimits& l = chain.dof_limits[i];
    const double lower = std::isfinite(l.lower) ? l.lower : -M_PI;
    const double upper = std::isfinite(l.upper) ? l.upper : M_PI;
    vectors[1][i] = lower;
    vectors[2][i] = upper;
    vectors[3][i] = 0.5 * lower + 0.5 * upper;
    vectors[4][i] = upper + 1.0;
  }
  return vectors;
}

void ExerciseChain(const motion::ChainModel& chain) {
  motion::ChainData data(chain);
  motion::Jacobian jacobian;
  const Eigen::Isometry3d tool = Eigen::Isometry3d(Eigen::Translation3d(0.0, 0.0, 0.1));
  for (const Eigen::VectorXd& q : JointVectors(chain)) {
    motion::ForwardKinematics(chain, data, q);
    motion::LinkPoses(chain, data);
    motion::ComputeJacobian(chain, data, q, tool, jacobian);
    motion::MeasureJacobian(jacobian);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  // The server's limits, with a smaller file bound: what a 4 MiB file can
  // reach, a 256 KiB one reaches too, and each input stays fast.
  motion::ModelLimits limits;
  limits.max_urdf_bytes = 256u << 10;
  const absl::string_view urdf(reinterpret_cast<const char*>(bytes), size);
  absl::StatusOr<std::shared_ptr<const motion::RobotModel>> model =
      motion::RobotModel::FromUrdf(urdf, limits);
  if (!model.ok()) {
    RequireNoRawPercent(model.status());
    return 0;
  }
  const motion::DefaultChain& chosen = (*model)->default_chain();
  // Candidates are base -> every leaf; a long URDF can have hundreds, and a
  // few cover every code path a chain has.
  const std::size_t candidates = std::min<std::size_t>(chosen.candidates.size(), 8);
  for (std::size_t i = 0; i <= candidates; ++i) {
    absl::StatusOr<std::shared_ptr<const motion::ChainModel>> chain =
        i == candidates
            ? (*model)->Chain()
            : (*model)->Chain(chosen.candidates[i].base_link, chosen.candidates[i].tip_link);
    if (!chain.ok()) {
      RequireNoRawPercent(chain.status());
      continue;
    }
    ExerciseChain(**chain);
  }
  return 0;
}
