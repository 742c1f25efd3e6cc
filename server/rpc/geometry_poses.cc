// motion.v1.Geometry's pose operations: microseconds of arithmetic on the
// request alone, so they run on the gRPC thread they arrived on
// (RunUnaryInline), like an FK of a registered robot.
#include "absl/strings/str_cat.h"
#include "core/geometry/pose_algebra.h"
#include "server/convert/pose_forms.h"
#include "server/convert/proto_conversion.h"
#include "server/rpc/geometry_operations.h"
#include "server/rpc/geometry_service.h"

namespace motion::server {
namespace {

// A chain of poses longer than any frame tree a cell has.
constexpr int kMaxComposedPoses = 1000;

// A pose the request must carry.
absl::StatusOr<Pose> RequiredPose(bool present, const v1::Pose& pose, absl::string_view field) {
  if (!present) return absl::InvalidArgumentError(absl::StrCat(field, ": missing"));
  return PoseFromProto(pose, field);
}

void CanonicalPoseToProto(const Pose& pose, v1::Pose* out) {
  PoseToProto(CanonicalSign(pose).ToIsometry(), out);
}

}  // namespace

absl::Status ConvertPoseOperation(const v1::ConvertPoseRequest& request,
                                  v1::ConvertPoseResponse* response) {
  if (request.has_pose() == request.has_matrix()) {
    return absl::InvalidArgumentError("pose, matrix: give exactly one of them");
  }
  if (request.rpy_unit() != v1::RADIANS && request.rpy_unit() != v1::DEGREES) {
    return absl::InvalidArgumentError("rpy_unit: say RADIANS or DEGREES for the rpy of the answer");
  }
  absl::StatusOr<Pose> pose = request.has_pose() ? PoseFromProto(request.pose(), "pose")
                                                 : PoseFromMatrixProto(request.matrix(), "matrix");
  if (!pose.ok()) return pose.status();
  const Pose canonical = CanonicalSign(*pose);
  PoseToProto(canonical.ToIsometry(), response->mutable_pose());
  RpyToProto(canonical.orientation, request.rpy_unit(), response->mutable_rpy());
  MatrixToProto(canonical.ToIsometry(), response->mutable_matrix());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::ConvertPose(grpc::CallbackServerContext* context,
                                                       const v1::ConvertPoseRequest* request,
                                                       v1::ConvertPoseResponse* response) {
  return RunUnaryInline(context, "ConvertPose", [request, response](ChainDataCache&) {
    return ConvertPoseOperation(*request, response);
  });
}

absl::Status ComposePosesOperation(const v1::ComposePosesRequest& request,
                                   v1::PoseResponse* response) {
  if (request.poses_size() == 0 || request.poses_size() > kMaxComposedPoses) {
    return absl::InvalidArgumentError(
        absl::StrCat("poses: ", request.poses_size(), " poses; give 1 to ", kMaxComposedPoses));
  }
  Pose product = Pose::Identity();
  for (int i = 0; i < request.poses_size(); ++i) {
    absl::StatusOr<Pose> pose = PoseFromProto(request.poses(i), absl::StrCat("poses[", i, "]"));
    if (!pose.ok()) return pose.status();
    product = Compose(product, *pose);
  }
  CanonicalPoseToProto(product, response->mutable_pose());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::ComposePoses(grpc::CallbackServerContext* context,
                                                        const v1::ComposePosesRequest* request,
                                                        v1::PoseResponse* response) {
  return RunUnaryInline(context, "ComposePoses", [request, response](ChainDataCache&) {
    return ComposePosesOperation(*request, response);
  });
}

absl::Status InvertPoseOperation(const v1::InvertPoseRequest& request, v1::PoseResponse* response) {
  absl::StatusOr<Pose> pose = RequiredPose(request.has_pose(), request.pose(), "pose");
  if (!pose.ok()) return pose.status();
  CanonicalPoseToProto(Inverse(*pose), response->mutable_pose());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::InvertPose(grpc::CallbackServerContext* context,
                                                      const v1::InvertPoseRequest* request,
                                                      v1::PoseResponse* response) {
  return RunUnaryInline(context, "InvertPose", [request, response](ChainDataCache&) {
    return InvertPoseOperation(*request, response);
  });
}

absl::Status ApplyOffsetOperation(const v1::ApplyOffsetRequest& request,
                                  v1::PoseResponse* response) {
  absl::StatusOr<Pose> target = RequiredPose(request.has_target(), request.target(), "target");
  if (!target.ok()) return target.status();
  absl::StatusOr<Pose> frame = OptionalPoseFromProto(request.has_frame(), request.frame(), "frame");
  if (!frame.ok()) return frame.status();
  absl::StatusOr<Pose> offset =
      OptionalPoseFromProto(request.has_offset(), request.offset(), "offset");
  if (!offset.ok()) return offset.status();
  OffsetFrame axes;
  switch (request.offset_frame()) {
    case v1::MotionSegment::WORLD:
      axes = OffsetFrame::kWorld;
      break;
    case v1::MotionSegment::FRAME:
      axes = OffsetFrame::kFrame;
      break;
    case v1::MotionSegment::TOOL:
      axes = OffsetFrame::kTool;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("offset_frame: unknown value ", static_cast<int>(request.offset_frame())));
  }
  CanonicalPoseToProto(ResolveTarget(*target, *frame, *offset, axes), response->mutable_pose());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::ApplyOffset(grpc::CallbackServerContext* context,
                                                       const v1::ApplyOffsetRequest* request,
                                                       v1::PoseResponse* response) {
  return RunUnaryInline(context, "ApplyOffset", [request, response](ChainDataCache&) {
    return ApplyOffsetOperation(*request, response);
  });
}

absl::Status ApplyToolAndFrameOperation(const v1::ApplyToolAndFrameRequest& request,
                                        v1::ApplyToolAndFrameResponse* response) {
  absl::StatusOr<Pose> target = RequiredPose(request.has_target(), request.target(), "target");
  if (!target.ok()) return target.status();
  absl::StatusOr<Pose> frame = OptionalPoseFromProto(request.has_frame(), request.frame(), "frame");
  if (!frame.ok()) return frame.status();
  absl::StatusOr<Pose> tool = OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  const Pose tcp = Compose(*frame, *target);
  CanonicalPoseToProto(tcp, response->mutable_tcp());
  CanonicalPoseToProto(Compose(tcp, Inverse(*tool)), response->mutable_flange());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::ApplyToolAndFrame(
    grpc::CallbackServerContext* context, const v1::ApplyToolAndFrameRequest* request,
    v1::ApplyToolAndFrameResponse* response) {
  return RunUnaryInline(context, "ApplyToolAndFrame", [request, response](ChainDataCache&) {
    return ApplyToolAndFrameOperation(*request, response);
  });
}

}  // namespace motion::server
