#pragma once

#include <chrono>
#include <string>

namespace motionctl {

/// \brief One plain HTTP/1.0 GET over a POSIX TCP socket (no TLS, no
/// redirects): enough to read a Prometheus /metrics page without a new
/// dependency. `address` is HOST:PORT or [IPV6]:PORT. Returns false with a
/// message in `error` on a connection failure, a timeout or a status other
/// than 200; the body (chunked transfer decoded) goes to `body`.
bool HttpGet(const std::string& address, const std::string& path, std::chrono::milliseconds timeout,
             std::string* body, std::string* error);

}  // namespace motionctl
