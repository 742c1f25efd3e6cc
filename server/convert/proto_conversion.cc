#include "server/convert/proto_conversion.h"

#include <cmath>
#include <tuple>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/geometry/pose_algebra.h"

namespace motion::server {
namespace {

v1::JointType ToProto(JointType type) {
  switch (type) {
    case JointType::kRevolute:
      return v1::REVOLUTE;
    case JointType::kContinuous:
      return v1::CONTINUOUS;
    case JointType::kPrismatic:
      return v1::PRISMATIC;
  }
  return v1::JOINT_TYPE_UNSPECIFIED;
}

}  // namespace

absl::StatusOr<Eigen::Quaterniond> QuaternionFromRpyProto(const v1::Rpy& rpy,
                                                          absl::string_view field) {
  if (rpy.unit() != v1::RADIANS && rpy.unit() != v1::DEGREES) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".unit: say RADIANS or DEGREES; angles are never guessed"));
  }
  const bool degrees = rpy.unit() == v1::DEGREES;
  const char* names[] = {"roll", "pitch", "yaw"};
  const double given[] = {rpy.roll(), rpy.pitch(), rpy.yaw()};
  double radians[3];
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(given[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", names[i], ": ", given[i], " is not finite"));
    }
    if (!degrees && std::abs(given[i]) > 2 * M_PI) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".", names[i], ": ", given[i],
                                                     " rad is more than a turn; degrees? then set ",
                                                     field, ".unit = DEGREES"));
    }
    radians[i] = degrees ? given[i] * M_PI / 180.0 : given[i];
  }
  return QuaternionFromRpy(radians[0], radians[1], radians[2]);
}

absl::StatusOr<Pose> PoseFromProto(const v1::Pose& pose, absl::string_view field) {
  const auto& p = pose.position();
  if (pose.has_rpy()) {
    if (pose.has_orientation()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".rpy: give the orientation as a quaternion or as rpy, not both"));
    }
    absl::StatusOr<Eigen::Quaterniond> q =
        QuaternionFromRpyProto(pose.rpy(), absl::StrCat(field, ".rpy"));
    if (!q.ok()) return q.status();
    return MakePose(Eigen::Vector3d(p.x(), p.y(), p.z()), q->x(), q->y(), q->z(), q->w(), field);
  }
  const auto& q = pose.orientation();
  return MakePose(Eigen::Vector3d(p.x(), p.y(), p.z()), q.x(), q.y(), q.z(), q.w(), field);
}

absl::StatusOr<Pose> OptionalPoseFromProto(bool present, const v1::Pose& pose,
                                           absl::string_view field) {
  if (!present) return Pose::Identity();
  return PoseFromProto(pose, field);
}

void PoseToProto(const Eigen::Isometry3d& transform, v1::Pose* out) {
  const Pose pose = Pose::FromIsometry(transform);
  out->mutable_position()->set_x(pose.position.x());
  out->mutable_position()->set_y(pose.position.y());
  out->mutable_position()->set_z(pose.position.z());
  out->mutable_orientation()->set_x(pose.orientation.x());
  out->mutable_orientation()->set_y(pose.orientation.y());
  out->mutable_orientation()->set_z(pose.orientation.z());
  out->mutable_orientation()->set_w(pose.orientation.w());
}

void LinkPoseToProto(const LinkPose& link, v1::LinkPose* out) {
  out->set_link(link.link);
  PoseToProto(link.pose, out->mutable_pose());
}

void FillRobotInfo(const std::string& robot_id, const RobotModel& model, const ChainModel& chain,
                   v1::RobotInfo* out) {
  out->set_name(model.name());
  out->set_robot_id(robot_id);
  out->set_base_link(chain.base_link);
  out->set_tip_link(chain.tip_link);
  out->set_dof(chain.dof());
  for (int i = 0; i < chain.dof(); ++i) {
    const JointLimits& l = chain.dof_limits[i];
    auto* joint = out->add_joints();
    joint->set_name(chain.dof_names[i]);
    joint->set_type(ToProto(chain.dof_types[i]));
    joint->set_lower(l.lower);
    joint->set_upper(l.upper);
    joint->set_bounded(l.bounded);
    joint->set_max_velocity(l.max_velocity);
    joint->set_max_acceleration(l.max_acceleration);
    joint->set_velocity_source(l.velocity_source);
    joint->set_acceleration_source(l.acceleration_source);
    joint->set_max_jerk(l.max_jerk);
    joint->set_jerk_source(l.jerk_source);
    joint->set_max_torque(l.max_torque);
    joint->set_torque_source(l.torque_source);
  }
  for (const ChainMimic& mimic : chain.mimics) {
    auto* m = out->add_mimic_joints();
    m->set_name(mimic.joint);
    m->set_mimics(mimic.dof_name);
    m->set_multiplier(mimic.multiplier);
    m->set_offset(mimic.offset);
  }
  out->set_chain_rule(model.default_chain().rule);
  for (const ChainCandidate& c : model.default_chain().candidates) {
    auto* candidate = out->add_candidate_chains();
    candidate->set_base_link(c.base_link);
    candidate->set_tip_link(c.tip_link);
    candidate->set_dof(c.dof);
  }
  out->set_link_count(static_cast<int>(model.link_names().size()));
  out->set_joint_count(static_cast<int>(model.joints().size()));
  out->set_urdf_bytes(static_cast<int64_t>(model.urdf_bytes()));
  for (const ChainLink& link : chain.links) out->add_links(link.name);
}

absl::StatusOr<RobotConfiguration> ConfigurationFromProto(const v1::RobotConfiguration& in,
                                                          absl::string_view field) {
  RobotConfiguration out;
  for (auto [value, name, target] :
       {std::tuple{in.shoulder(), "shoulder", &out.shoulder},
        std::tuple{in.elbow(), "elbow", &out.elbow}, std::tuple{in.wrist(), "wrist", &out.wrist}}) {
    if (value < -1 || value > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", name, ": must be -1, 0 (any) or +1, got ", value));
    }
    *target = value;
  }
  out.turns.assign(in.turns().begin(), in.turns().end());
  return out;
}

void ConfigurationToProto(const RobotConfiguration& c, v1::RobotConfiguration* out) {
  out->set_shoulder(c.shoulder);
  out->set_elbow(c.elbow);
  out->set_wrist(c.wrist);
  out->mutable_turns()->Add(c.turns.begin(), c.turns.end());
}

absl::StatusOr<IkOptions> IkOptionsFromProto(const v1::IkOptions& in) {
  IkOptions out;
  if (in.has_configuration()) {
    absl::StatusOr<RobotConfiguration> c =
        ConfigurationFromProto(in.configuration(), "options.configuration");
    if (!c.ok()) return c.status();
    out.configuration = *std::move(c);
  }
  absl::StatusOr<IkSolverKind> solver = ParseIkSolverKind(in.solver());
  if (!solver.ok()) return solver.status();
  out.solver = *solver;
  if (in.position_tolerance() != 0) out.position_tolerance = in.position_tolerance();
  if (in.orientation_tolerance() != 0) out.orientation_tolerance = in.orientation_tolerance();
  if (in.max_iterations() != 0) out.max_iterations = in.max_iterations();
  if (in.timeout() > kMaxIkTimeoutSeconds) {
    return absl::InvalidArgumentError(absl::StrCat("options.timeout: ", in.timeout(),
                                                   " s; the limit is ", kMaxIkTimeoutSeconds,
                                                   " s of solver time per target"));
  }
  if (in.timeout() != 0) out.timeout = in.timeout();
  if (in.max_solutions() != 0) out.max_solutions = in.max_solutions();
  switch (in.mode()) {
    case v1::IkOptions::MODE_UNSPECIFIED:
    case v1::IkOptions::FIRST:
      out.mode = IkMode::kFirst;
      break;
    case v1::IkOptions::CLOSEST:
      out.mode = IkMode::kClosest;
      break;
    case v1::IkOptions::ALL:
      out.mode = IkMode::kAll;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("options.mode: unknown value ", static_cast<int>(in.mode())));
  }
  return out;
}

void DiagnosticToProto(const Diagnostic& d, v1::Diagnostic* out) {
  out->set_severity(static_cast<v1::Severity>(d.severity));
  out->set_code(static_cast<v1::DiagnosticCode>(d.code));
  out->set_message(WithoutPercentSigns(d.message));  // may quote segment ids
  out->set_segment_id(d.segment_id);
  out->set_point_index(d.point_index);
  out->set_joint_name(d.joint_name);
  out->set_source(WithoutPercentSigns(d.source));
  out->set_value(d.value);
  out->set_limit(d.limit);
  out->set_time(d.time);
  if (d.has_contact) {
    out->mutable_contact()->set_link(WithoutPercentSigns(d.contact_link));
    out->mutable_contact()->set_other(WithoutPercentSigns(d.contact_other));
    out->mutable_contact()->set_depth(d.contact_depth);
  }
}

void IkResultToProto(const IkResult& result, v1::IkResult* out) {
  out->set_ok(result.ok);
  out->mutable_joints()->Add(result.joints.data(), result.joints.data() + result.joints.size());
  out->set_position_error(result.position_error);
  out->set_orientation_error(result.orientation_error);
  out->set_iterations(result.iterations);
  out->set_attempts(result.attempts);
  out->set_outcome(IkOutcomeName(result.outcome));
  out->set_min_singular_value(result.min_singular_value);
  ConfigurationToProto(result.configuration, out->mutable_configuration());
  out->set_method(IkMethodName(result.method));
  for (const Diagnostic& d : result.diagnostics) DiagnosticToProto(d, out->add_diagnostics());
  for (std::size_t i = 0; i < result.solutions.size(); ++i) {
    v1::IkSolution* solution = out->add_solutions();
    const Eigen::VectorXd& s = result.solutions[i];
    solution->mutable_joints()->Add(s.data(), s.data() + s.size());
    if (i < result.solution_configurations.size()) {
      ConfigurationToProto(result.solution_configurations[i], solution->mutable_configuration());
    }
  }
}

void FillJacobian(const Jacobian& jacobian, const JacobianMeasures& measures,
                  v1::ComputeJacobianResponse* out) {
  out->set_rows(static_cast<int>(jacobian.rows()));
  out->set_cols(static_cast<int>(jacobian.cols()));
  for (Eigen::Index r = 0; r < jacobian.rows(); ++r) {
    for (Eigen::Index c = 0; c < jacobian.cols(); ++c) out->add_data(jacobian(r, c));
  }
  out->set_manipulability(measures.manipulability);
  out->set_condition_number(measures.condition_number);
  for (Eigen::Index i = 0; i < measures.singular_values.size(); ++i) {
    out->add_singular_values(measures.singular_values[i]);
  }
}

}  // namespace motion::server
