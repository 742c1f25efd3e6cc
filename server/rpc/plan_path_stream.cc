#include "server/rpc/plan_path_stream.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/motion/path_planner.h"
#include "server/convert/path_conversion.h"
#include "server/convert/proto_conversion.h"

namespace motion::server {

PlanPathStream::PlanPathStream(ServiceEnv env, grpc::CallbackServerContext* context,
                               const v1::PlanPathRequest* request)
    : env_(env), context_(context), request_(request) {
  env_.metrics.RecordStreamOpened("PlanPath");
  const bool queued =
      env_.pool.TrySubmit([this](KinematicsWorkspace& workspace) { Plan(workspace); });
  if (!queued) {
    Finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "server busy: the solver queue is full; retry later"));
  }
}

void PlanPathStream::Plan(KinematicsWorkspace& workspace) {
  absl::Status status = [&]() -> absl::Status {
    if (cancelled_ || context_->IsCancelled()) return absl::CancelledError("cancelled");
    absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, request_->robot());
    if (!resolved.ok()) return resolved.status();
    robot_id_ = resolved->robot.robot_id;
    chain_ = resolved->chain;
    absl::StatusOr<PathRequest> path = PathRequestFromProto(*request_);
    if (!path.ok()) return path.status();
    sample_time_ = path->sample_time;
    if (request_->max_chunk_points() < 0) {
      return absl::InvalidArgumentError("max_chunk_points: must be >= 0 (0 = 256)");
    }
    chunk_points_ = request_->max_chunk_points() == 0
                        ? 256
                        : std::min<std::size_t>(request_->max_chunk_points(), 4096);
    const auto started = std::chrono::steady_clock::now();
    absl::StatusOr<PathResult> result =
        PlanPath(workspace.For(chain_), *path, env_.limits.path,
                 [this] { return cancelled_.load(std::memory_order_relaxed); });
    if (!result.ok()) return result.status();
    env_.metrics.RecordPath(*result, SecondsSince(started));
    result_ = *std::move(result);
    return absl::OkStatus();
  }();
  // The RPC log interceptor logs the outcome (and rejected input).
  if (!status.ok()) {
    FinishWith(status);
    return;
  }
  WriteNext();
}

void PlanPathStream::OnWriteDone(bool ok) {
  if (!ok || cancelled_) {
    FinishWith(absl::CancelledError("PlanPath: the client went away"));
    return;
  }
  WriteNext();
}

void PlanPathStream::WriteNext() {
  message_.Clear();
  const Trajectory& t = result_.trajectory;
  const int dof = t.dof;
  switch (stage_) {
    case Stage::kHeader: {
      auto* header = message_.mutable_header();
      header->set_robot_id(robot_id_);
      header->set_dof(dof);
      for (const std::string& name : chain_->dof_names) header->add_joint_names(name);
      header->set_sample_time(sample_time_);
      header->set_point_count(static_cast<int64_t>(t.size()));
      header->set_base_link(chain_->base_link);
      header->set_tip_link(chain_->tip_link);
      stage_ = Stage::kBody;
      StartWrite(&message_);
      return;
    }
    case Stage::kBody: {
      // A segment's report goes out once all its samples have.
      if (next_segment_ < result_.segments.size()) {
        const SegmentReport& report = result_.segments[next_segment_];
        if (static_cast<std::size_t>(report.first_index + report.point_count) <= next_point_) {
          SegmentReportToProto(report, message_.mutable_segment_report());
          ++next_segment_;
          StartWrite(&message_);
          return;
        }
      }
      if (next_point_ < t.size()) {
        const std::size_t end = std::min(t.size(), next_point_ + chunk_points_);
        auto* chunk = message_.mutable_chunk();
        chunk->set_first_index(static_cast<int64_t>(next_point_));
        chunk->mutable_time()->Add(t.time.begin() + next_point_, t.time.begin() + end);
        chunk->mutable_positions()->Add(t.positions.begin() + next_point_ * dof,
                                        t.positions.begin() + end * dof);
        chunk->mutable_velocities()->Add(t.velocities.begin() + next_point_ * dof,
                                         t.velocities.begin() + end * dof);
        chunk->mutable_accelerations()->Add(t.accelerations.begin() + next_point_ * dof,
                                            t.accelerations.begin() + end * dof);
        if (request_->include_tcp()) {
          for (std::size_t k = next_point_; k < end; ++k) {
            PoseToProto(t.tcp[k].ToIsometry(), chunk->add_tcp());
          }
        }
        next_point_ = end;
        StartWrite(&message_);
        return;
      }
      stage_ = Stage::kSummary;
      [[fallthrough]];
    }
    case Stage::kSummary: {
      auto* summary = message_.mutable_summary();
      summary->set_ok(result_.ok);
      summary->set_duration(result_.duration);
      summary->set_point_count(static_cast<int64_t>(t.size()));
      for (const Diagnostic& d : result_.diagnostics) {
        DiagnosticToProto(d, summary->add_diagnostics());
      }
      stage_ = Stage::kDone;
      StartWrite(&message_);
      return;
    }
    case Stage::kDone:
      FinishWith(absl::OkStatus());
      return;
  }
}

void PlanPathStream::FinishWith(const absl::Status& status) { Finish(ToGrpcStatus(status)); }

}  // namespace motion::server
