#include "server/rpc/plan_path_stream.h"

#include <algorithm>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "server/convert/path_conversion.h"
#include "server/planning/program_planning.h"

namespace motion::server {
namespace {

// What a planned trajectory holds in memory while its stream sends it.
std::size_t HeldBytes(const Trajectory& t) {
  return sizeof(double) * (t.time.capacity() + t.positions.capacity() + t.velocities.capacity() +
                           t.accelerations.capacity()) +
         sizeof(Pose) * t.tcp.capacity();
}

// RESOURCE_EXHAUSTED with google.rpc.RetryInfo: the budget frees as the
// streams that hold it are read, cancelled or time out.
absl::Status OverBudget(std::size_t bytes, const ByteBudget& budget) {
  absl::Status status = absl::ResourceExhaustedError(absl::StrCat(
      "server busy: this trajectory (", bytes >> 20,
      " MiB) does not fit in what PlanPath "
      "streams may hold for their clients (",
      budget.used() >> 20, " of ", budget.capacity() >> 20,
      " MiB held for clients that have not read them; --max_unsent_trajectory_mb); retry "
      "later"));
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_seconds(1);
  status.SetPayload("type.googleapis.com/google.rpc.RetryInfo",
                    absl::Cord(retry.SerializeAsString()));
  return status;
}

}  // namespace

PlanPathStream::PlanPathStream(ServiceEnv env, grpc::CallbackServerContext* context,
                               const v1::PlanPathRequest* request)
    : env_(env), context_(context), request_(request) {
  env_.metrics.RecordStreamOpened("PlanPath");
  const bool queued =
      env_.pool.TrySubmit([this](ChainDataCache& cache) { Plan(cache); }, Lane::kLong);
  if (!queued) {
    Finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "server busy: the solver queue is full; retry later"));
  }
}

void PlanPathStream::Plan(ChainDataCache& cache) {
  absl::Status status = [&]() -> absl::Status {
    if (cancelled_ || context_->IsCancelled()) return absl::CancelledError("cancelled");
    absl::StatusOr<ProgramToPlan> program =
        ResolveProgram(env_.registry, env_.collision_models, env_.scenes, *request_);
    if (!program.ok()) return program.status();
    robot_id_ = program->robot_id;
    chain_ = program->chain;
    sample_time_ = program->path.sample_time;
    if (request_->max_chunk_points() < 0) {
      return absl::InvalidArgumentError("max_chunk_points: must be >= 0 (0 = 256)");
    }
    chunk_points_ = request_->max_chunk_points() == 0
                        ? 256
                        : std::min<std::size_t>(request_->max_chunk_points(), 4096);
    absl::StatusOr<PathResult> result =
        PlanProgram(*program, cache, env_.limits.path, env_.metrics,
                    [this] { return cancelled_.load(std::memory_order_relaxed); });
    if (!result.ok()) return result.status();
    // Held for as long as the client takes to read it: no growth slack
    // (up to half of it after the vectors' last doubling).
    Trajectory& t = result->trajectory;
    for (std::vector<double>* v : {&t.time, &t.positions, &t.velocities, &t.accelerations}) {
      v->shrink_to_fit();
    }
    t.tcp.shrink_to_fit();
    const std::size_t bytes = HeldBytes(t);
    if (!env_.unsent_trajectories.TryReserve(bytes)) {
      return OverBudget(bytes, env_.unsent_trajectories);
    }
    reserved_bytes_ = bytes;
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
  switch (stage_) {
    case Stage::kHeader: {
      PlanHeaderToProto(robot_id_, *chain_, sample_time_, t, message_.mutable_header());
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
        TrajectoryChunkToProto(t, next_point_, end, request_->include_tcp(),
                               message_.mutable_chunk());
        next_point_ = end;
        StartWrite(&message_);
        return;
      }
      stage_ = Stage::kSummary;
      [[fallthrough]];
    }
    case Stage::kSummary: {
      PlanSummaryToProto(result_, message_.mutable_summary());
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
