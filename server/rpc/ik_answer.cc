#include "server/rpc/ik_answer.h"

#include "core/geometry/pose_algebra.h"
#include "core/kinematics/forward_kinematics.h"
#include "server/convert/proto_conversion.h"

namespace motion::server {

void IkAnswerToProto(const ChainModel& chain, IkData& data, const IkResult& result,
                     const Pose& tool, const std::optional<Pose>& frame, v1::IkResult* out) {
  IkResultToProto(result, out);
  if (result.ok || result.joints.size() != static_cast<Eigen::Index>(chain.dof())) return;
  const Pose tcp =
      Compose(Pose::FromIsometry(ForwardKinematics(chain, data.kinematics, result.joints)), tool);
  const Pose answered = frame ? Compose(Inverse(*frame), tcp) : tcp;
  PoseToProto(answered.ToIsometry(), out->mutable_nearest_pose());
}

}  // namespace motion::server
