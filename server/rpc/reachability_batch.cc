#include "server/rpc/reachability_batch.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/geometry/pose_algebra.h"
#include "core/ik/arm_geometry.h"
#include "core/ik/robot_configuration.h"
#include "core/kinematics/joint_vector_check.h"
#include "server/convert/proto_conversion.h"
#include "server/rpc/ik_answer.h"

namespace motion::server {

void ReachabilityBatch::Start(ServiceEnv env, grpc::CallbackServerContext* context,
                              const v1::CheckReachabilityRequest* request,
                              v1::CheckReachabilityResponse* response,
                              grpc::ServerUnaryReactor* reactor) {
  std::shared_ptr<ReachabilityBatch> batch(
      new ReachabilityBatch(env, context, request, response, reactor));
  const bool queued = env.pool.TrySubmit([batch](ChainDataCache& cache) {
    if (absl::Status status = batch->Prepare(); !status.ok()) {
      batch->RecordError(std::move(status));
      batch->Finish();
      return;
    }
    // Helpers take chunks too, as far as the queue has room for them.
    const int helpers = std::min(batch->env_.pool.workers(), batch->chunk_count_) - 1;
    for (int i = 0; i < helpers; ++i) {
      ++batch->active_workers_;
      if (!batch->env_.pool.TrySubmit([batch](ChainDataCache& ws) { batch->Work(ws); })) {
        --batch->active_workers_;
        break;
      }
    }
    batch->Work(cache);
  });
  if (!queued) {
    reactor->Finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                 "server busy: the solver queue is full; retry later"));
  }
}

namespace {

// Ids are echoed back; longer than any name a cell program gives a point.
constexpr std::size_t kMaxTargetIdBytes = 256;

}  // namespace

absl::Status ReachabilityBatch::Prepare() {
  const bool detailed = request_->target_details_size() > 0;
  if (detailed && request_->targets_size() > 0) {
    return absl::InvalidArgumentError(
        "target_details: give targets or target_details, not both (each detail carries its own "
        "pose)");
  }
  const int count = detailed ? request_->target_details_size() : request_->targets_size();
  const char* field = detailed ? "target_details" : "targets";
  if (count == 0) return absl::InvalidArgumentError("targets: empty; give at least one pose");
  if (count > env_.limits.max_batch_targets) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", count, " targets exceeds the limit of ",
                     env_.limits.max_batch_targets, " per request; split the batch"));
  }
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, request_->robot());
  if (!resolved.ok()) return resolved.status();
  chain_ = resolved->chain;
  absl::StatusOr<IkOptions> options = IkOptionsFromProto(request_->options());
  if (!options.ok()) return options.status();
  options_ = *options;
  options_.stop = [context = context_] { return context->IsCancelled(); };
  absl::StatusOr<std::optional<IkCollisionSetup>> collision =
      IkCollisionFromProto(env_, *resolved, request_->options(), "options");
  if (!collision.ok()) return collision.status();
  collision_ = *std::move(collision);
  absl::StatusOr<Pose> tool = OptionalPoseFromProto(request_->has_tool(), request_->tool(), "tool");
  if (!tool.ok()) return tool.status();
  tool_ = *tool;
  seed_.assign(request_->seed().begin(), request_->seed().end());
  if (!seed_.empty()) {
    if (auto status = CheckJointVector(*chain_, seed_, "seed"); !status.ok()) return status;
  }
  absl::StatusOr<Pose> frame =
      OptionalPoseFromProto(request_->has_frame(), request_->frame(), "frame");
  if (!frame.ok()) return frame.status();
  if (request_->has_frame()) frame_ = *frame;
  if (auto status = PrepareTargets(); !status.ok()) return status;
  for (int i = 0; i < count; ++i) response_->add_results();
  if (request_->options().seed_from_previous()) {
    chunk_size_ = count;  // a path: one worker, in order
  } else {
    // Several chunks per worker keep workers busy when targets differ in cost.
    chunk_size_ = std::max(8, count / (4 * env_.pool.workers()));
  }
  chunk_count_ = (count + chunk_size_ - 1) / chunk_size_;
  return absl::OkStatus();
}

absl::Status ReachabilityBatch::PrepareTargets() {
  const bool detailed = request_->target_details_size() > 0;
  const int count = detailed ? request_->target_details_size() : request_->targets_size();
  targets_.reserve(count);
  if (detailed) own_.resize(count);
  std::optional<ArmGeometry> geometry;  // what configuration flags mean, once
  for (int i = 0; i < count; ++i) {
    const std::string field =
        detailed ? absl::StrCat("target_details[", i, "].pose") : absl::StrCat("targets[", i, "]");
    if (detailed && !request_->target_details(i).has_pose()) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": missing"));
    }
    const v1::Pose& sent = detailed ? request_->target_details(i).pose() : request_->targets(i);
    absl::StatusOr<Pose> target = PoseFromProto(sent, field);
    if (!target.ok()) return target.status();
    // In the base frame; as sent when there is no frame (bit for bit).
    targets_.push_back(frame_ ? Compose(*frame_, *target) : *target);
    if (!detailed) continue;
    const v1::ReachabilityTarget& details = request_->target_details(i);
    const std::string prefix = absl::StrCat("target_details[", i, "]");
    if (details.id().size() > kMaxTargetIdBytes) {
      return absl::InvalidArgumentError(absl::StrCat(prefix, ".id: ", details.id().size(),
                                                     " bytes; at most ", kMaxTargetIdBytes));
    }
    TargetOwn& own = own_[i];
    own.id = details.id();
    own.seed.assign(details.seed().begin(), details.seed().end());
    if (!own.seed.empty()) {
      if (auto status = CheckJointVector(*chain_, own.seed, absl::StrCat(prefix, ".seed"));
          !status.ok()) {
        return status;
      }
    }
    if (details.has_configuration()) {
      absl::StatusOr<RobotConfiguration> configuration =
          ConfigurationFromProto(details.configuration(), absl::StrCat(prefix, ".configuration"));
      if (!configuration.ok()) return configuration.status();
      if (!geometry) geometry = DetectArmGeometry(*chain_);
      if (auto status = ValidateConfiguration(*configuration, *chain_, *geometry,
                                              absl::StrCat(prefix, ".configuration"));
          !status.ok()) {
        return status;
      }
      own.options = options_;
      own.options->configuration = *configuration;
    }
  }
  return absl::OkStatus();
}

absl::Status ReachabilityBatch::SolveTarget(IkData& data, int index,
                                            const std::vector<double>& seed) {
  const auto started = std::chrono::steady_clock::now();
  const TargetOwn* own = own_.empty() ? nullptr : &own_[index];
  const IkOptions& options = own && own->options ? *own->options : options_;
  const std::vector<double>& start = own && !own->seed.empty() ? own->seed : seed;
  absl::StatusOr<IkResult> result =
      SolveRequestedIk(*chain_, data, targets_[index], tool_, start, options, collision_);
  if (!result.ok()) return result.status();
  env_.metrics.RecordIk(options_.solver, *result, SecondsSince(started));
  v1::IkResult* out = response_->mutable_results(index);
  IkAnswerToProto(*chain_, data, *result, tool_, frame_, out);
  if (own) out->set_id(own->id);
  return absl::OkStatus();
}

void ReachabilityBatch::Work(ChainDataCache& cache) {
  IkData& chain_data = cache.For(chain_);
  const bool path = request_->options().seed_from_previous();
  for (int chunk = next_chunk_++; chunk < chunk_count_; chunk = next_chunk_++) {
    const int end = std::min<int>(targets_.size(), (chunk + 1) * chunk_size_);
    std::vector<double> seed = seed_;
    for (int i = chunk * chunk_size_; i < end; ++i) {
      if (context_->IsCancelled()) {
        RecordError(absl::CancelledError("CheckReachability: cancelled by the client"));
        next_chunk_ = chunk_count_;
        break;
      }
      if (absl::Status status = SolveTarget(chain_data, i, seed); !status.ok()) {
        RecordError(std::move(status));
        next_chunk_ = chunk_count_;
        break;
      }
      // Path-like batches: the next target starts where this one ended.
      const auto& result = response_->results(i);
      if (path && result.ok()) seed.assign(result.joints().begin(), result.joints().end());
    }
  }
  if (--active_workers_ == 0) Finish();
}

void ReachabilityBatch::RecordError(absl::Status status) {
  std::lock_guard<std::mutex> lock(error_mutex_);
  if (error_.ok()) error_ = std::move(status);
}

void ReachabilityBatch::Finish() {
  env_.metrics.RecordSolve("reachability", IkSolverName(options_.solver), SecondsSince(started_));
  absl::Status status;
  {
    std::lock_guard<std::mutex> lock(error_mutex_);
    status = error_;
  }
  if (!status.ok()) response_->clear_results();
  reactor_->Finish(ToGrpcStatus(status));
}

}  // namespace motion::server
