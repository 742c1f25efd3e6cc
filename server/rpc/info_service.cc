#include "server/rpc/info_service.h"

#include <fcl/config.h>
#include <google/protobuf/stubs/common.h>
#include <kdl/config.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "core/collision/collision_scene.h"
#include "core/collision/stl_mesh.h"
#include "server/convert/cell_conversion.h"
#include "server/convert/proto_conversion.h"

namespace motion::server {
namespace {

// Stable words for what this build can do; a client tests for a word, never
// for a version.
constexpr const char* kCapabilities[] = {"fk",
                                         "jacobian",
                                         "ik",
                                         "closed_form_ik",
                                         "reachability",
                                         "robot_configurations",
                                         "joint_limit_overrides",
                                         "movej",
                                         "movel",
                                         "movec",
                                         "trapezoid_profile",
                                         "jerk_limited_profiles",
                                         "zone_blending",
                                         "collision_checking",
                                         "meshes",
                                         "scenes",
                                         "allowed_collisions",
                                         "trajectory_check",
                                         "trajectory_resampling",
                                         "profile_description",
                                         "reachability_target_details",
                                         "server_info",
                                         "cell_validation"};

void AddLimit(v1::GetServerInfoResponse* out, const char* name, double value, const char* unit,
              const char* flag, const char* applies_to) {
  v1::ServerLimit* limit = out->add_limits();
  limit->set_name(name);
  limit->set_value(value);
  limit->set_unit(unit);
  limit->set_flag(flag);
  limit->set_applies_to(applies_to);
}

std::string ProtobufVersion() {
  const int v = GOOGLE_PROTOBUF_VERSION;  // e.g. 3021012
  return absl::StrCat(v / 1000000, ".", v / 1000 % 1000, ".", v % 1000);
}

}  // namespace

grpc::ServerUnaryReactor* InfoService::GetServerInfo(grpc::CallbackServerContext* context,
                                                     const v1::GetServerInfoRequest*,
                                                     v1::GetServerInfoResponse* response) {
  return RunUnaryOnPool(
      env_, context, "GetServerInfo", Lane::kShort,
      [this, response](ChainDataCache&) -> absl::Status {
        v1::GetServerInfoResponse& out = *response;
        out.set_version(MOTIOND_VERSION);
#if defined(__aarch64__)
        out.set_build_architecture("aarch64");
#else
        out.set_build_architecture("x86_64");
#endif
        out.set_compiler(__VERSION__);
        out.set_kdl_version(KDL_VERSION_STRING);
        out.set_fcl_version(FCL_VERSION);
        out.set_grpc_version(grpc::Version());
        out.set_protobuf_version(ProtobufVersion());
        for (const char* capability : kCapabilities) out.add_capabilities(capability);
        if (options_.tls.enabled()) out.add_capabilities("tls");
        out.set_workers(env_.pool.workers());
        out.set_short_workers(env_.pool.short_workers());

        const RequestLimits& l = env_.limits;
        const RegistryOptions& r = options_.registry;
        AddLimit(&out, "max_message_bytes", options_.max_message_bytes, "bytes",
                 "--max_message_bytes", "a gRPC message, either way");
        AddLimit(&out, "max_concurrent_streams", options_.max_concurrent_streams, "calls",
                 "--max_concurrent_streams", "calls in flight per client connection");
        AddLimit(&out, "max_urdf_bytes", r.model_limits.max_urdf_bytes, "bytes", "--max_urdf_bytes",
                 "one URDF");
        AddLimit(&out, "max_xml_depth", r.model_limits.max_xml_depth, "levels", "",
                 "XML nesting of a URDF");
        AddLimit(&out, "max_links", r.model_limits.max_links, "links", "", "links of one URDF");
        AddLimit(&out, "max_chain_dof", r.model_limits.max_chain_dof, "joints", "",
                 "independent joints of one chain");
        AddLimit(&out, "max_meshes", r.max_meshes, "files", "", "mesh files of one robot");
        AddLimit(&out, "max_mesh_bytes", r.mesh_limits.max_bytes, "bytes", "", "one mesh file");
        AddLimit(&out, "max_mesh_triangles", r.mesh_limits.max_triangles, "triangles", "",
                 "one mesh file");
        AddLimit(&out, "max_robot_mesh_triangles", r.max_mesh_triangles, "triangles", "",
                 "every mesh of one robot together");
        AddLimit(&out, "max_scene_objects", SceneLimits().max_objects, "objects", "", "one scene");
        AddLimit(&out, "registry_max_robots", r.max_robots, "robots", "--registry_max_robots",
                 "robots cached, least recently used evicted");
        AddLimit(&out, "registry_max_bytes", r.max_bytes, "bytes", "--registry_max_bytes",
                 "memory of the cached robots");
        AddLimit(&out, "max_batch_targets", l.max_batch_targets, "targets", "--max_batch_targets",
                 "targets of one CheckReachability");
        AddLimit(&out, "max_trajectory_points", l.path.max_points, "samples",
                 "--max_trajectory_points", "samples of one trajectory, planned or sent");
        AddLimit(&out, "max_path_segments", l.path.max_segments, "segments", "--max_path_segments",
                 "segments of one path");
        AddLimit(&out, "max_planning_seconds", l.path.max_planning_seconds, "s", "",
                 "collision-free search (MoveJ avoid_collisions) over one request");
        AddLimit(&out, "min_sample_time", l.path.min_sample_time, "s", "", "a trajectory's grid");
        AddLimit(&out, "stream_max_in_flight", l.stream_max_in_flight, "requests",
                 "--stream_max_in_flight", "ValidatePath requests read but not yet answered");
        AddLimit(&out, "max_unsent_trajectory_bytes", options_.max_unsent_trajectory_bytes, "bytes",
                 "--max_unsent_trajectory_mb",
                 "planned trajectories held for unread PlanPath streams");
        AddLimit(&out, "grpc_memory_bytes", options_.grpc_memory_bytes, "bytes", "--grpc_memory_mb",
                 "gRPC's own buffers over every connection");
        AddLimit(&out, "max_queue", options_.max_queue, "tasks", "--max_queue",
                 "queued solver tasks per lane");
        AddLimit(&out, "max_ik_timeout", kMaxIkTimeoutSeconds, "s", "",
                 "IkOptions.timeout of one target");
        AddLimit(&out, "max_cell_robots", CellLimits::kMaxRobots, "robots", "",
                 "robots of one ValidateCell");
        AddLimit(&out, "max_cell_instants", CellOptions().max_instants, "instants", "",
                 "samples of every program of one ValidateCell");
        return absl::OkStatus();
      });
}

}  // namespace motion::server
