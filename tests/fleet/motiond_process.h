#pragma once

// The real motiond binary as a child process of a fleet test: started on a
// free loopback port (--listen=127.0.0.1:0, the port read back from its
// "listening on ... (port N)" log line) or on a given one (a restarted pod
// keeps its address), its /metrics read over plain HTTP, its RSS read from
// /proc, and killed with the test: SIGKILL in the destructor, and
// PR_SET_PDEATHSIG so that even a crashed test leaves no motiond behind.
//
// Debugging: MOTIOND_FLEET_KEEP_LOGS=1 keeps each process's log file
// ($TMPDIR/motiond_fleet_NAME_XXXXXX), MOTIOND_FLEET_LOG_LEVEL=debug sets
// its --log_level (one line per RPC).

#include <sys/types.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifndef MOTIOND_BINARY
#error "MOTIOND_BINARY must be the path of the motiond executable"
#endif

namespace motiond_fleet {

/// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read,
/// close). For --metrics_listen, whose exporter does not log its port.
int FreeLoopbackPort();

class MotiondProcess {
 public:
  /// Starts MOTIOND_BINARY with `flags` (plus --listen, --metrics_listen and
  /// --log_level unless given) and waits up to `timeout` for it to listen.
  /// `port` 0 picks a free port. `name` labels the log file and messages.
  /// Throws std::runtime_error with the process log when it does not start.
  /// `nice` < 0 raises its scheduling priority where permitted (root), for
  /// latency measurements on a loaded machine; ignored when not permitted.
  static std::unique_ptr<MotiondProcess> Start(
      const std::string& name, std::vector<std::string> flags, int port = 0,
      std::chrono::milliseconds timeout = std::chrono::seconds(20), int nice = 0);

  ~MotiondProcess();
  MotiondProcess(const MotiondProcess&) = delete;
  MotiondProcess& operator=(const MotiondProcess&) = delete;

  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  /// "127.0.0.1:PORT" of the gRPC port.
  std::string address() const;
  /// "127.0.0.1:PORT" of /metrics ("" when disabled with --metrics_listen=).
  const std::string& metrics_address() const { return metrics_address_; }

  /// True while the process has not exited.
  bool Running();
  /// SIGKILL and reap (a crashed pod). Idempotent.
  void Kill();
  /// SIGTERM and wait up to `timeout`; the exit code, or -1 on a signal or
  /// a timeout (then it is killed, after its thread stacks went to its log).
  /// 20 s: motiond's exit can take 10 s after "motiond stopped" (gRPC's
  /// executor thread, see plan_cancel_test.cc).
  int Terminate(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  /// Terminate in two halves, to stop several processes at once.
  void SendTerminate();
  int AwaitExit(std::chrono::milliseconds timeout = std::chrono::seconds(20));

  /// Resident set size in kB (VmRSS of /proc/PID/status), -1 if unreadable.
  long RssKb() const;
  /// Everything the process wrote to stdout and stderr so far.
  std::string Log() const;

  /// The /metrics page, or nullopt (with `error`) when it cannot be read.
  std::optional<std::string> Metrics(std::string* error = nullptr) const;

 private:
  MotiondProcess() = default;

  std::string name_;
  std::string log_path_;
  std::string metrics_address_;
  pid_t pid_ = -1;
  int port_ = 0;
  bool reaped_ = false;
};

/// The sum of every sample of `metric` whose labels include all of `labels`
/// in Prometheus text `page` (0 when there is none).
double SumOfMetric(const std::string& page, const std::string& metric,
                   const std::map<std::string, std::string>& labels = {});

/// Runs `command` through /bin/sh; its exit code (-1 when it did not exit).
int RunShell(const std::string& command);

/// A fresh directory under $TMPDIR (or /tmp), removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "motiond_fleet");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace motiond_fleet
