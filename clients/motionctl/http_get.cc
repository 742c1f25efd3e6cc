#include "clients/motionctl/http_get.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace motionctl {
namespace {

using Clock = std::chrono::steady_clock;

bool SplitHostPort(const std::string& address, std::string* host, std::string* port) {
  std::string::size_type colon;
  if (!address.empty() && address[0] == '[') {  // [::1]:9464
    const auto close = address.find(']');
    if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') {
      return false;
    }
    *host = address.substr(1, close - 1);
    colon = close + 1;
  } else {
    colon = address.rfind(':');
    if (colon == std::string::npos) return false;
    *host = address.substr(0, colon);
  }
  *port = address.substr(colon + 1);
  if (host->empty()) *host = "127.0.0.1";
  return !port->empty();
}

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits until `fd` is ready for `events` or the deadline passes.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int n = poll(&p, 1, RemainingMs(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

// Closes the socket on every return path.
struct Socket {
  explicit Socket(int fd) : fd(fd) {}
  ~Socket() { close(fd); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  const int fd;
};

// Non-blocking connect to the first address that answers before the deadline.
int Connect(const std::string& host, const std::string& port, Clock::time_point deadline,
            std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    *error = host + ":" + port + ": " + gai_strerror(rc);
    return -1;
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> addresses(found, freeaddrinfo);
  *error = host + ":" + port + ": no address";
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd =
        socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int rc = connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      if (WaitFor(fd, POLLOUT, deadline)) {
        int so_error = 0;
        socklen_t len = sizeof so_error;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
        rc = so_error == 0 ? 0 : -1;
        errno = so_error;
      } else {
        errno = ETIMEDOUT;
      }
    }
    if (rc == 0) return fd;
    *error = host + ":" + port + ": " + std::strerror(errno);
    close(fd);
  }
  return -1;
}

bool DecodeChunked(const std::string& in, std::string* out) {
  out->clear();
  std::string::size_type at = 0;
  for (;;) {
    const auto eol = in.find("\r\n", at);
    if (eol == std::string::npos) return false;
    char* end = nullptr;
    const unsigned long size = std::strtoul(in.c_str() + at, &end, 16);
    if (end == in.c_str() + at) return false;
    if (size == 0) return true;
    if (eol + 2 + size > in.size()) return false;
    out->append(in, eol + 2, size);
    at = eol + 2 + size + 2;  // chunk data, then CRLF
  }
}

}  // namespace

bool HttpGet(const std::string& address, const std::string& path, std::chrono::milliseconds timeout,
             std::string* body, std::string* error) {
  std::string host, port;
  if (!SplitHostPort(address, &host, &port)) {
    *error = "'" + address + "': expected HOST:PORT";
    return false;
  }
  const auto deadline = Clock::now() + timeout;
  const int fd = Connect(host, port, deadline, error);
  if (fd < 0) return false;
  const Socket socket_closer(fd);

  const std::string host_header = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: " + host_header + ":" + port +
                              "\r\nAccept: text/plain\r\nConnection: close\r\n\r\n";
  for (std::size_t sent = 0; sent < request.size();) {
    if (!WaitFor(fd, POLLOUT, deadline)) return *error = address + ": timed out sending", false;
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return *error = address + ": " + std::strerror(errno), false;
    }
    if (n > 0) sent += static_cast<std::size_t>(n);
  }
  std::string response;
  char buffer[16384];
  for (;;) {  // HTTP/1.0: the server closes the connection after the body
    if (!WaitFor(fd, POLLIN, deadline)) return *error = address + ": timed out reading", false;
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return *error = address + ": " + std::strerror(errno), false;
    }
    response.append(buffer, static_cast<std::size_t>(n));
  }

  const auto header_end = response.find("\r\n\r\n");
  if (response.compare(0, 5, "HTTP/") != 0 || header_end == std::string::npos) {
    *error = address + path + ": not an HTTP response";
    return false;
  }
  const auto space = response.find(' ');
  const int status = std::atoi(response.c_str() + space + 1);
  if (status != 200) {
    *error =
        address + path + ": HTTP " + response.substr(space + 1, response.find("\r\n") - space - 1);
    return false;
  }
  std::string headers = response.substr(0, header_end);
  for (char& c : headers) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  response.erase(0, header_end + 4);
  if (headers.find("transfer-encoding: chunked") != std::string::npos) {
    if (!DecodeChunked(response, body))
      return *error = address + path + ": bad chunked body", false;
  } else {
    *body = std::move(response);
  }
  return true;
}

}  // namespace motionctl
