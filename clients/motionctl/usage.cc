#include "clients/motionctl/usage.h"

namespace motionctl {
namespace {

constexpr char kUsage[] = R"(usage: motionctl [--target=HOST:PORT] [--json] COMMAND ...

commands:
  register FILE.urdf            register a robot, print its id and chain (--meshes=DIR
                                sends the STL files its <collision> meshes name)
  robots                        list registered robots
  robot ROBOT                   joints, limits, candidate chains and collision geometry
  fk ROBOT q1 ... qn            flange and TCP pose (--tool="x y z qx qy qz qw",
                                --all_links to add every link of the chain)
  jacobian ROBOT q1 ... qn      6 x n Jacobian, manipulability, condition number
  validate FILE|DIR ...         validate many programs over one stream (progress on
                                stderr, a table, exit 1 if any failed; --json)
  cell FILE.json                several robots' programs and start times checked together
                                (see clients/examples/ur5_pair_cell.json): each program's
                                verdict, every contact interval, the minimum clearance;
                                --find_start_times suggests start times that clear the
                                cell; --clearance adds the clearance at every instant
                                (with --json); --margin=M; exit 3 if not collision-free
  plan FILE.json                plan a motion program (see clients/examples/), print the
                                segment reports; --csv=OUT writes every sample;
                                --plot=OUT.png draws the plan (1400 x 900 PNG): position,
                                velocity, acceleration and jerk of every joint as a ratio
                                to its limit, the TCP path from above and from the side,
                                the diagnostics in red;
                                --limits=LIMITS.json the robot's real joint limits
                                ({"joint_limits": [{"joint_name": ..., "max_velocity": ...,
                                "max_acceleration": ..., "max_jerk": ...}]}; also for validate)
  check ROBOT q1 ... qn         the joint vector against --scene=SCENE.json and itself:
                                every contact (exit 3 if any); --distance, --margin=M,
                                --no_self, --allow=LINK:OTHER,...; plan and validate
                                take --scene, --margin and --allow too
  ik ROBOT x y z qx qy qz qw    joints that put the TCP at the pose (--seed="q1 ... qn",
                                --tool=..., --solver=lm|kdl_nr_jl|kdl_lma, --all for every
                                distinct solution found)
  check-trajectory ROBOT FILE.csv
                                a trajectory from elsewhere (a time column, then one
                                column per joint, or a plan --csv file) against the
                                robot's limits as motiond audits its own (exit 3 if broken)
  resample ROBOT FILE.csv --dt=S
                                the trajectory on a uniform grid of S seconds, with
                                velocities and accelerations (--csv=OUT writes them)
  pose x y z qx qy qz qw        one pose as quaternion, roll/pitch/yaw and 4 x 4 matrix;
                                also x y z roll pitch yaw with --deg or --rad, or the
                                16 values of a matrix (row-major)
  info                          the server's version, capabilities and every limit
  stats                         the server's key figures from its Prometheus /metrics:
                                requests by method and code, p50/p99 latency, solve latency
                                by operation, IK success, registry, solver pool
                                (--metrics=HOST:PORT, default 127.0.0.1:9464; --json)

ROBOT is a robot_id (sha256:...), a .urdf file, or a registered robot's name;
with a .urdf file, --meshes=DIR sends its collision meshes (package://PKG/REST is
read from DIR/PKG/REST, DIR/REST or DIR/<file name>).
flags: --target (default 127.0.0.1:50051; "a:1,b:2" balances round robin),
       --json, --base=LINK --tip=LINK (a chain other than the default),
       --timeout=SECONDS (default 10), --tls (with system roots) or
       --tls_ca=CA.pem [--tls_cert=C.pem --tls_key=K.pem for mTLS]
       [--tls_server_name=NAME]
)";

}  // namespace

int PrintUsage(std::FILE* out) {
  std::fprintf(out, "%s", kUsage);
  return 1;
}

}  // namespace motionctl
