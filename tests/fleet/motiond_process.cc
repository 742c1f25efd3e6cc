#include "motiond_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "clients/motionctl/http_get.h"

namespace motiond_fleet {
namespace {

using Clock = std::chrono::steady_clock;

bool HasFlag(const std::vector<std::string>& flags, const std::string& name) {
  for (const std::string& f : flags) {
    if (f.rfind("--" + name + "=", 0) == 0 || f == "--" + name) return true;
  }
  return false;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The port of "motiond listening on 127.0.0.1:0 (port 41235), ..." or 0.
int PortFromLog(const std::string& log) {
  static const std::regex kListening(R"(listening on \S+ \(port ([0-9]+)\))");
  std::smatch match;
  if (!std::regex_search(log, match, kListening)) return 0;
  return std::stoi(match[1].str());
}

}  // namespace

int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket: " + std::string(std::strerror(errno)));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t size = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    const std::string error = std::strerror(errno);
    close(fd);
    throw std::runtime_error("bind 127.0.0.1:0: " + error);
  }
  close(fd);
  return ntohs(address.sin_port);
}

std::unique_ptr<MotiondProcess> MotiondProcess::Start(const std::string& name,
                                                      std::vector<std::string> flags, int port,
                                                      std::chrono::milliseconds timeout, int nice) {
  std::unique_ptr<MotiondProcess> process(new MotiondProcess());
  process->name_ = name;
  const char* tmp = std::getenv("TMPDIR");
  std::string log_template =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/motiond_fleet_" + name + "_XXXXXX";
  std::vector<char> path(log_template.begin(), log_template.end());
  path.push_back('\0');
  const int log_fd = mkstemp(path.data());
  if (log_fd < 0) throw std::runtime_error("mkstemp: " + std::string(std::strerror(errno)));
  process->log_path_ = path.data();

  flags.insert(flags.begin(), "--listen=127.0.0.1:" + std::to_string(port));
  if (!HasFlag(flags, "metrics_listen")) {
    process->metrics_address_ = "127.0.0.1:" + std::to_string(FreeLoopbackPort());
    flags.push_back("--metrics_listen=" + process->metrics_address_);
  } else {
    for (const std::string& f : flags) {
      if (f.rfind("--metrics_listen=", 0) == 0) {
        process->metrics_address_ = f.substr(std::strlen("--metrics_listen="));
      }
    }
  }
  if (!HasFlag(flags, "log_level")) {
    // MOTIOND_FLEET_LOG_LEVEL=debug: one line per RPC in the kept logs.
    const char* level = std::getenv("MOTIOND_FLEET_LOG_LEVEL");
    flags.push_back(std::string("--log_level=") + (level && *level ? level : "info"));
  }

  std::vector<std::string> args = {MOTIOND_BINARY};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. Dies with the test
    // (the forking thread, which is the test's main thread).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (nice != 0) setpriority(PRIO_PROCESS, 0, nice);  // may fail: then as is
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    close(log_fd);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(log_fd);
  process->pid_ = pid;

  const auto end = Clock::now() + timeout;
  while (Clock::now() < end) {
    process->port_ = PortFromLog(process->Log());
    if (process->port_ != 0) return process;
    if (!process->Running()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::string log = process->Log();
  process->Kill();
  throw std::runtime_error(name + ": motiond did not start listening (" + MOTIOND_BINARY +
                           "); its log:\n" + log);
}

MotiondProcess::~MotiondProcess() {
  Kill();
  if (!log_path_.empty() && !std::getenv("MOTIOND_FLEET_KEEP_LOGS")) {
    std::remove(log_path_.c_str());
  }
}

std::string MotiondProcess::address() const { return "127.0.0.1:" + std::to_string(port_); }

bool MotiondProcess::Running() {
  if (reaped_) return false;
  int status = 0;
  const pid_t done = waitpid(pid_, &status, WNOHANG);
  if (done == pid_) reaped_ = true;
  return !reaped_;
}

void MotiondProcess::Kill() {
  if (pid_ <= 0 || reaped_) return;
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
}

int MotiondProcess::Terminate(std::chrono::milliseconds timeout) {
  SendTerminate();
  return AwaitExit(timeout);
}

void MotiondProcess::SendTerminate() {
  if (pid_ > 0 && !reaped_) kill(pid_, SIGTERM);
}

int MotiondProcess::AwaitExit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0 || reaped_) return -1;
  const auto end = Clock::now() + timeout;
  while (Clock::now() < end) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      reaped_ = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // It hangs: append every thread's stack to its log (when gdb is there),
  // which the failing test prints.
  const std::string pid = std::to_string(pid_);
  const std::string dump =
      "{ grep -E '^(State|Threads)' /proc/" + pid + "/status; for t in /proc/" + pid +
      "/task/*; do echo \"$t: $(cut -d' ' -f3 $t/stat) wchan=$(cat $t/wchan)\"; cat $t/stack; "
      "done; command -v gdb >/dev/null && timeout 30 gdb -p " +
      pid + " -batch -ex 'thread apply all bt'; } >>'" + log_path_ + "' 2>&1";
  RunShell(dump);
  Kill();
  return -1;
}

long MotiondProcess::RssKb() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

std::string MotiondProcess::Log() const { return ReadFile(log_path_); }

std::optional<std::string> MotiondProcess::Metrics(std::string* error) const {
  std::string body, message;
  if (metrics_address_.empty()) {
    if (error) *error = name_ + ": started without --metrics_listen";
    return std::nullopt;
  }
  if (!motionctl::HttpGet(metrics_address_, "/metrics", std::chrono::seconds(5), &body, &message)) {
    if (error) *error = name_ + ": GET http://" + metrics_address_ + "/metrics: " + message;
    return std::nullopt;
  }
  return body;
}

double SumOfMetric(const std::string& page, const std::string& metric,
                   const std::map<std::string, std::string>& labels) {
  // name{a="x",b="y"} value   or   name value
  static const std::regex kSample(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+))");
  static const std::regex kLabel(R"re(([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)")re");
  double sum = 0.0;
  std::istringstream lines(page);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::smatch match;
    if (!std::regex_search(line, match, kSample) || match[1].str() != metric) continue;
    std::map<std::string, std::string> found;
    const std::string label_text = match[3].str();
    for (auto it = std::sregex_iterator(label_text.begin(), label_text.end(), kLabel);
         it != std::sregex_iterator(); ++it) {
      found[(*it)[1].str()] = (*it)[2].str();
    }
    bool matches = true;
    for (const auto& [key, value] : labels) {
      auto f = found.find(key);
      if (f == found.end() || f->second != value) matches = false;
    }
    if (matches) sum += std::strtod(match[4].str().c_str(), nullptr);
  }
  return sum;
}

int RunShell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TempDir::TempDir(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "_XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data())) {
    throw std::runtime_error("mkdtemp: " + std::string(std::strerror(errno)));
  }
  path_ = buffer.data();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace motiond_fleet
