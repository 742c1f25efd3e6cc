#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/ik/arm_geometry.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Which of the IK branches a joint vector is on: three +-1 flags and
/// the whole turns of every joint (README "Robot configurations").
///
/// Flags are signs of geometric quantities that vanish exactly where two IK
/// branches meet (a singularity), so a flag changes only through one:
///  - shoulder: +1 when the wrist point lies on the same side of axis 1 (in
///    the arm plane) as at the zero configuration ("front"), -1 behind;
///  - elbow: +1 when shoulder -> elbow -> wrist point turns about axis 2 in
///    the sense of an elbow-up arm reaching forward ("up"; for shoulder = -1
///    the same sense, the arm reaching back over itself), -1 "down";
///  - wrist: +1 when joint 5 is turned positive (its URDF sense) from the
///    position where axes 4 and 6 line up, -1 negative ("flip").
/// The wrist point is the wrist centre (spherical-wrist family) or the
/// intersection of axes 5 and 6 (UR family, whose elbow line ends at axis 4).
/// 7-axis arms: the same pivot rule as the wrist flag at joints 2, 4 and 6
/// (shoulder, elbow, wrist), as KUKA's LBR status bits; no arm-angle flag.
/// Other chains: flags 0. In an answer a flag is 0 exactly on the boundary
/// (singular), where it is compatible with either sign.
///
/// turns[i] = k such that q_i = r + 2 pi k with r in (-pi, pi] (0 for
/// prismatic joints).
struct RobotConfiguration {
  int shoulder = 0;
  int elbow = 0;
  int wrist = 0;
  std::vector<int> turns;  ///< one per DOF (answers); requests: empty = any

  bool operator==(const RobotConfiguration& o) const {
    return shoulder == o.shoulder && elbow == o.elbow && wrist == o.wrist && turns == o.turns;
  }
  bool operator!=(const RobotConfiguration& o) const { return !(*this == o); }
};

/// \brief The whole-turn index of q relative to (-pi, pi]: ceil((q - pi) / 2 pi).
int WholeTurns(double q);

/// \brief The configuration of joints `q` (size model.dof()) of a chain whose
/// geometry is `geometry` (DetectArmGeometry(model)).
RobotConfiguration ComputeConfiguration(const ChainModel& model, const ArmGeometry& geometry,
                                        const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief The same from the frames of the last ForwardKinematics(model, data,
/// q) call (`tip` is what it returned): no trigonometry, for IK's inner loop.
RobotConfiguration ComputeConfigurationFromFrames(const ChainModel& model,
                                                  const ArmGeometry& geometry,
                                                  const ChainData& data,
                                                  const Eigen::Isometry3d& tip,
                                                  const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief Whether an answer's flags satisfy a request's (0 on either side
/// matches anything); turns are not compared.
bool FlagsMatch(const RobotConfiguration& wanted, const RobotConfiguration& have);

/// \brief Flags and, when `wanted.turns` is not empty, turns.
bool ConfigurationMatches(const RobotConfiguration& wanted, const RobotConfiguration& have);

/// \brief "(shoulder +1, elbow -1, wrist +1, turns [0 0 0 0 0 1])"; zero
/// flags are written "any", empty turns are left out.
std::string FormatConfiguration(const RobotConfiguration& configuration);

/// \brief InvalidArgument naming `field` (e.g. "options.configuration") unless
/// every flag is -1, 0 or +1 and turns is empty or one per DOF; non-zero
/// flags on a chain without flag definitions are refused too.
absl::Status ValidateConfiguration(const RobotConfiguration& configuration, const ChainModel& model,
                                   const ArmGeometry& geometry, absl::string_view field);

}  // namespace motion
