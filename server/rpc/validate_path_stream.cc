#include "server/rpc/validate_path_stream.h"

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "server/convert/path_conversion.h"
#include "server/planning/program_planning.h"

namespace motion::server {
namespace {

void SetError(v1::ValidatePathResponse& response, absl::StatusCode code, std::string message) {
  ValidationErrorToProto(absl::Status(code, message), &response);
}

}  // namespace

ValidatePathStream::ValidatePathStream(ServiceEnv env, grpc::CallbackServerContext* context,
                                       std::size_t max_in_flight)
    : env_(env), context_(context), max_in_flight_(std::max<std::size_t>(1, max_in_flight)) {
  env_.metrics.RecordStreamOpened("ValidatePath");
  std::lock_guard<std::mutex> lock(mutex_);
  MaybeStartReadLocked();
}

void ValidatePathStream::MaybeStartReadLocked() {
  if (reading_ || reads_done_ || cancelled_ || in_flight_ >= max_in_flight_) return;
  reading_ = true;
  StartRead(&incoming_);
}

void ValidatePathStream::OnReadDone(bool ok) {
  std::unique_lock<std::mutex> lock(mutex_);
  reading_ = false;
  if (!ok) {  // half-close (or the stream broke)
    reads_done_ = true;
    MaybeFinishLocked();
    return;
  }
  ++in_flight_;
  v1::ValidatePathResponse response;
  response.set_request_id(incoming_.request_id());
  if (!ids_in_flight_.insert(incoming_.request_id()).second) {
    lock.unlock();
    SetError(response, absl::StatusCode::kInvalidArgument,
             absl::StrCat("request_id: '", response.request_id(),
                          "' is already in flight on this stream"));
    Answer(std::move(response), /*from_task=*/false, /*owns_id=*/false);
    lock.lock();
    MaybeStartReadLocked();
    return;
  }
  ++tasks_;
  auto request = std::make_shared<v1::ValidatePathRequest>(std::move(incoming_));
  MaybeStartReadLocked();
  lock.unlock();
  const bool queued = env_.pool.TrySubmit(
      [this, request](ChainDataCache& cache) {
        v1::ValidatePathResponse out;
        out.set_request_id(request->request_id());
        Validate(cache, *request, out);
        Answer(std::move(out), /*from_task=*/true, /*owns_id=*/true);
      },
      Lane::kLong);
  if (!queued) {
    SetError(response, absl::StatusCode::kResourceExhausted,
             "server busy: the solver queue is full; retry this request");
    Answer(std::move(response), /*from_task=*/true, /*owns_id=*/true);
  }
}

void ValidatePathStream::Validate(ChainDataCache& cache, const v1::ValidatePathRequest& request,
                                  v1::ValidatePathResponse& response) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_) {
      SetError(response, absl::StatusCode::kCancelled, "stream cancelled");
      return;
    }
  }
  absl::Status status = [&]() -> absl::Status {
    absl::StatusOr<ProgramToPlan> program = ResolveProgram(
        env_.registry, env_.collision_models, env_.scenes, request.path(), "path.robot");
    if (!program.ok()) return program.status();
    absl::StatusOr<PathResult> result = PlanProgram(*program, cache, env_.limits.path, env_.metrics,
                                                    [this] { return context_->IsCancelled(); });
    if (!result.ok()) return result.status();
    ValidationToProto(*result, &response);
    return absl::OkStatus();
  }();
  if (!status.ok()) ValidationErrorToProto(status, &response);
}

void ValidatePathStream::Answer(v1::ValidatePathResponse response, bool from_task, bool owns_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (from_task) --tasks_;
  if (cancelled_) {
    --in_flight_;
    if (owns_id) ids_in_flight_.erase(response.request_id());
    MaybeFinishLocked();
    return;
  }
  outbox_.emplace_back(std::move(response), owns_id);
  if (!writing_) StartNextWriteLocked();
}

void ValidatePathStream::StartNextWriteLocked() {
  writing_ = true;
  current_ = std::move(outbox_.front().first);
  current_owns_id_ = outbox_.front().second;
  outbox_.pop_front();
  // Free the id before the answer can reach the client, which may reuse it
  // at once (in_flight_ still counts the request until OnWriteDone).
  if (current_owns_id_) ids_in_flight_.erase(current_.request_id());
  StartWrite(&current_);
}

void ValidatePathStream::OnWriteDone(bool ok) {
  std::lock_guard<std::mutex> lock(mutex_);
  writing_ = false;
  --in_flight_;
  if (!ok) cancelled_ = true;  // the client is gone; drop the rest
  if (!cancelled_ && !outbox_.empty()) StartNextWriteLocked();
  MaybeStartReadLocked();
  MaybeFinishLocked();
}

void ValidatePathStream::OnCancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  cancelled_ = true;
  in_flight_ -= outbox_.size();
  outbox_.clear();
  MaybeFinishLocked();
}

void ValidatePathStream::MaybeFinishLocked() {
  if (finished_ || tasks_ > 0 || writing_ || reading_) return;
  if (cancelled_) {
    finished_ = true;
    Finish(grpc::Status(grpc::StatusCode::CANCELLED, "ValidatePath cancelled"));
    return;
  }
  if (reads_done_ && outbox_.empty() && in_flight_ == 0) {
    finished_ = true;
    Finish(grpc::Status::OK);
  }
}

}  // namespace motion::server
