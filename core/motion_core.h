#pragma once

/// \file
/// \brief The public API of motiond's motion library, in one include.
///
/// URDF -> RobotModel (robot_model.h) -> ChainModel (one base -> tip chain,
/// immutable, shared between threads) -> algorithms that take the model and
/// this thread's data: ForwardKinematics / ComputeJacobian(model, ChainData&,
/// ...), SolveIk(model, IkData&, ...), PlanPath(model, IkData&, request, ...)
/// for MoveJ / MoveL / MoveC programs, and the one-dimensional profiles they
/// are timed with; PlanJointPath (planning/joint_path_planner.h) for a
/// collision-free joint path around a scene; ValidateCell and
/// SuggestStartTimes (cell/) for several robots' programs checked together
/// in time; InverseDynamics(model, DynamicsData&, q, qd, qdd, gravity, payload, tau) and its
/// helpers (dynamics/) for joint torques. ChainDataCache keeps one IkData
/// per chain for a thread. Errors are absl::Status values whose messages
/// start with the field they are about; a motion that cannot be done is a
/// result with diagnostics.
///
/// Everything under a folder's internal/ is implementation: included by the
/// library and its tests only, and free to change.
///
/// Units: metres, radians, seconds; poses are the pose of a frame in the
/// base frame, quaternions (x, y, z, w). core/examples/urdf_to_program.cc
/// uses the whole API in forty lines.

#include "core/cache/chain_data_cache.h"
#include "core/cell/cell_program.h"
#include "core/cell/cell_validation.h"
#include "core/cell/start_time_search.h"
#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_checker.h"
#include "core/collision/collision_scene.h"
#include "core/collision/motion_checker.h"
#include "core/collision/robot_collision_model.h"
#include "core/collision/robot_snapshot.h"
#include "core/collision/stl_mesh.h"
#include "core/collision/trajectory_collisions.h"
#include "core/diagnostics/diagnostic.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/dynamics/dynamics_availability.h"
#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/inverse_dynamics.h"
#include "core/dynamics/path_dynamics.h"
#include "core/dynamics/payload.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/geometry/pose.h"
#include "core/geometry/pose_algebra.h"
#include "core/identity/robot_id.h"
#include "core/ik/arm_geometry.h"
#include "core/ik/collision_free_ik.h"
#include "core/ik/ik_data.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/ik/ik_solver.h"
#include "core/ik/joint_space.h"
#include "core/ik/robot_configuration.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/kinematics/joint_vector_check.h"
#include "core/model/chain_model.h"
#include "core/model/model_limits.h"
#include "core/model/robot_model.h"
#include "core/motion/joint_samples.h"
#include "core/motion/motion_request.h"
#include "core/motion/path_planner.h"
#include "core/motion/program_validation.h"
#include "core/motion/trajectory.h"
#include "core/motion/trajectory_audit.h"
#include "core/motion/trajectory_resampling.h"
#include "core/planning/joint_path_planner.h"
#include "core/profile/double_s_profile.h"
#include "core/profile/profile_description.h"
#include "core/profile/trapezoid_profile.h"
