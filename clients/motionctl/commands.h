#pragma once

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"

// One function per motionctl command, each in <command>_command.cc. Every one
// returns the process exit code: 0 done, 1 bad command line or input file,
// 2 the RPC failed (ReportRpcError), 3 the server answered "not possible"
// (IK failed, a program not ok).
namespace motionctl {

/// \brief `register FILE.urdf`: registers the robot, prints its id and chain.
int RunRegister(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `robots`: the registered robots, one line each.
int RunRobots(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `robot ROBOT`: joints, limits and candidate chains of one robot.
int RunRobot(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `fk ROBOT q1 ... qn`: flange and TCP pose (and every link).
int RunFk(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `jacobian ROBOT q1 ... qn`: the 6 x n Jacobian and its measures.
int RunJacobian(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `ik ROBOT x y z qx qy qz qw`: joints putting the TCP at the pose.
int RunIk(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `check ROBOT q1 ... qn [--scene=FILE.json]`: the joint vector
/// against the scene and the robot itself, every contact (exit 3 if any).
int RunCheck(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `plan FILE.json`: plans one program, prints the segment reports;
/// --csv=OUT writes every sample, --plot=OUT.png a picture of the plan
/// against the robot's limits.
int RunPlan(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `validate FILE|DIR ...`: every program over one ValidatePath
/// stream, progress on stderr, then a table; exit 1 if any failed.
int RunValidate(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `cell FILE.json`: several robots' programs and start times
/// checked together (ValidateCell): each program's verdict, every contact
/// interval, the minimum clearance; --find_start_times adds start times
/// that clear the cell. Exit 3 when the cell is not collision-free.
int RunCell(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `check-trajectory ROBOT FILE.csv`: a trajectory from elsewhere
/// audited as motiond audits its own (exit 3 if a limit is broken).
int RunCheckTrajectory(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `resample ROBOT FILE.csv --dt=S [--csv=OUT]`: the trajectory on a
/// uniform grid of S seconds, with velocities and accelerations.
int RunResample(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `pose x y z qx qy qz qw` (or x y z r p y with --deg / --rad, or 16
/// matrix values): the pose as quaternion, roll/pitch/yaw and 4 x 4 matrix.
int RunPose(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `info`: the server's version, capabilities and every limit.
int RunInfo(motion::client::MotionClient& client, const CommandLine& cli);

/// \brief `stats`: reads http://--metrics/metrics (default 127.0.0.1:9464)
/// and prints the server's key figures — requests by method and code with
/// RPC latency, solve latency p50/p99 by operation (estimated from the
/// histogram buckets as PromQL's histogram_quantile does), IK success ratio,
/// registry size, solver pool — as a short table, or with --json as one
/// object. Counts are since the server started. Needs no gRPC channel.
int RunStats(const CommandLine& cli);

}  // namespace motionctl
