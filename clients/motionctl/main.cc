// motionctl: command-line client of motiond. `motionctl help` lists commands;
// each command is in its own <command>_command.cc.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"
#include "clients/motionctl/commands.h"
#include "clients/motionctl/usage.h"

int main(int argc, char** argv) {
  const motionctl::CommandLine cli = motionctl::ParseCommandLine(
      argc, argv,
      {"json", "all_links", "all", "help", "tls", "deg", "rad", "find_start_times", "clearance"});
  if (cli.positional.empty() || cli.Has("help") || cli.positional[0] == "help") {
    motionctl::PrintUsage(stdout);
    return cli.positional.empty() && !cli.Has("help") ? 1 : 0;
  }
  // stats reads the metrics port over HTTP; it needs no gRPC channel.
  if (cli.positional[0] == "stats") return motionctl::RunStats(cli);
  motion::client::ClientOptions options;
  options.target = cli.Flag("target", "127.0.0.1:50051");
  options.tls = cli.Has("tls");
  options.ca_file = cli.Flag("tls_ca");
  options.cert_file = cli.Flag("tls_cert");
  options.key_file = cli.Flag("tls_key");
  options.server_name = cli.Flag("tls_server_name");
  options.timeout = std::chrono::milliseconds(
      static_cast<long>(1000 * std::atof(cli.Flag("timeout", "10").c_str())));
  auto client = motion::client::MotionClient::Connect(options);

  const std::string& command = cli.positional[0];
  if (command == "register") return motionctl::RunRegister(*client, cli);
  if (command == "robots") return motionctl::RunRobots(*client, cli);
  if (command == "robot") return motionctl::RunRobot(*client, cli);
  if (command == "fk") return motionctl::RunFk(*client, cli);
  if (command == "jacobian") return motionctl::RunJacobian(*client, cli);
  if (command == "ik") return motionctl::RunIk(*client, cli);
  if (command == "plan") return motionctl::RunPlan(*client, cli);
  if (command == "check") return motionctl::RunCheck(*client, cli);
  if (command == "validate") return motionctl::RunValidate(*client, cli);
  if (command == "cell") return motionctl::RunCell(*client, cli);
  if (command == "check-trajectory") return motionctl::RunCheckTrajectory(*client, cli);
  if (command == "resample") return motionctl::RunResample(*client, cli);
  if (command == "pose") return motionctl::RunPose(*client, cli);
  if (command == "info") return motionctl::RunInfo(*client, cli);
  std::fprintf(stderr, "motionctl: unknown command '%s'\n\n", command.c_str());
  return motionctl::PrintUsage(stderr);
}
