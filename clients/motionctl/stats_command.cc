#include "clients/motionctl/commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "clients/motionctl/http_get.h"
#include "clients/motionctl/prometheus_text.h"
#include "proto/motion/v1/wire_constants.h"

namespace motionctl {
namespace {

// Cumulative buckets of one histogram summed per group (`key` of a bucket
// sample), like PromQL's `sum by (le, <labels>) (<histogram>_bucket)`.
using GroupKey = std::string (*)(const MetricSample&);

struct Latency {
  double count = 0;
  double p50 = NAN;
  double p99 = NAN;
};

std::map<std::string, Latency> LatencyBy(const MetricsPage& page, const std::string& histogram,
                                         GroupKey key) {
  std::map<std::string, std::map<double, double>> sums;
  for (const MetricSample* s : page.Find(histogram + "_bucket")) {
    const std::string bound = s->Label("le");
    char* end = nullptr;
    const double le = bound == "+Inf" ? INFINITY : std::strtod(bound.c_str(), &end);
    if (bound != "+Inf" && end == bound.c_str()) continue;
    sums[key(*s)][le] += s->value;
  }
  std::map<std::string, Latency> out;
  for (const auto& [group, by_bound] : sums) {
    std::vector<HistogramBucket> buckets;
    for (const auto& [le, count] : by_bound) buckets.push_back({le, count});
    Latency& l = out[group];
    l.count = buckets.back().count;  // the +Inf bucket when the page is complete
    l.p50 = HistogramQuantile(0.5, buckets);
    l.p99 = HistogramQuantile(0.99, buckets);
  }
  return out;
}

std::string ServiceMethod(const MetricSample& s) {
  return s.Label("grpc_service") + "/" + s.Label("grpc_method");
}
std::string Operation(const MetricSample& s) { return s.Label("operation"); }

// 12.3 us / 4.56 ms / 1.23 s; "-" without observations.
std::string Duration(double seconds) {
  if (std::isnan(seconds)) return "-";
  char buffer[32];
  if (seconds < 1e-3) {
    std::snprintf(buffer, sizeof buffer, "%.1f us", seconds * 1e6);
  } else if (seconds < 1) {
    std::snprintf(buffer, sizeof buffer, "%.2f ms", seconds * 1e3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  }
  return buffer;
}

std::string Bytes(double bytes) {
  char buffer[32];
  if (bytes < 1024) {
    std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
  } else if (bytes < 1024 * 1024) {
    std::snprintf(buffer, sizeof buffer, "%.1f KiB", bytes / 1024);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / (1024 * 1024));
  }
  return buffer;
}

// JSON number, or null for NaN/Inf (JSON has neither).
std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

// Label values come from our own server, but quote them properly anyway.
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Figures {
  // "service/method" -> code -> count
  std::map<std::string, std::map<std::string, double>> handled;
  std::map<std::string, Latency> rpc_latency;  // by "service/method"
  std::map<std::string, Latency> solve;        // by operation
  double ik_solves = 0, ik_ok = 0;
  std::map<std::string, double> ik_results;  // by result
  double robots = NAN, registry_bytes = NAN;
  double workers = NAN, busy = NAN, queue = NAN, queue_capacity = NAN;
  std::map<std::string, double> streams;
  std::string version;
};

Figures Collect(const MetricsPage& page) {
  Figures f;
  for (const MetricSample* s : page.Find("grpc_server_handled_total")) {
    f.handled[ServiceMethod(*s)][s->Label("grpc_code")] += s->value;
  }
  f.rpc_latency = LatencyBy(page, "grpc_server_handling_seconds", ServiceMethod);
  f.solve = LatencyBy(page, "motiond_solve_seconds", Operation);
  for (const MetricSample* s : page.Find("motiond_ik_solves_total")) {
    f.ik_solves += s->value;
    f.ik_results[s->Label("result")] += s->value;
    if (s->Label("result") == "ok") f.ik_ok += s->value;
  }
  const auto gauge = [&](const char* name) {
    return page.Find(name).empty() ? NAN : page.Sum(name);
  };
  f.robots = gauge("motiond_registry_robots");
  f.registry_bytes = gauge("motiond_registry_bytes");
  f.workers = gauge("motiond_solver_workers");
  f.busy = gauge("motiond_solver_busy_workers");
  f.queue = gauge("motiond_solver_queue_depth");
  f.queue_capacity = gauge("motiond_solver_queue_capacity");
  for (const MetricSample* s : page.Find("motiond_streams_in_flight")) {
    f.streams[s->Label("grpc_method")] += s->value;
  }
  for (const MetricSample* s : page.Find("motiond_build_info")) f.version = s->Label("version");
  return f;
}

void PrintJson(const Figures& f) {
  std::printf("{\n  \"version\": %s,\n  \"requests\": [", Quoted(f.version).c_str());
  const char* sep = "";
  for (const auto& [method, codes] : f.handled) {
    for (const auto& [code, count] : codes) {
      std::printf("%s\n    {\"method\": %s, \"code\": %s, \"count\": %s}", sep,
                  Quoted(method).c_str(), Quoted(code).c_str(), Number(count).c_str());
      sep = ",";
    }
  }
  const auto latencies = [](const char* key, const char* label,
                            const std::map<std::string, Latency>& by) {
    std::printf("\n  ],\n  \"%s\": [", key);
    const char* sep = "";
    for (const auto& [name, l] : by) {
      std::printf("%s\n    {\"%s\": %s, \"count\": %s, \"p50_seconds\": %s, \"p99_seconds\": %s}",
                  sep, label, Quoted(name).c_str(), Number(l.count).c_str(), Number(l.p50).c_str(),
                  Number(l.p99).c_str());
      sep = ",";
    }
  };
  latencies("rpc_latency", "method", f.rpc_latency);
  latencies("solve_latency", "operation", f.solve);
  std::printf("\n  ],\n  \"ik\": {\"solves\": %s, \"ok\": %s, \"success_ratio\": %s},\n",
              Number(f.ik_solves).c_str(), Number(f.ik_ok).c_str(),
              Number(f.ik_solves > 0 ? f.ik_ok / f.ik_solves : NAN).c_str());
  std::printf("  \"registry\": {\"robots\": %s, \"bytes\": %s},\n", Number(f.robots).c_str(),
              Number(f.registry_bytes).c_str());
  std::printf(
      "  \"pool\": {\"workers\": %s, \"busy_workers\": %s, \"queue_depth\": %s, "
      "\"queue_capacity\": %s},\n",
      Number(f.workers).c_str(), Number(f.busy).c_str(), Number(f.queue).c_str(),
      Number(f.queue_capacity).c_str());
  std::printf("  \"streams_in_flight\": {");
  sep = "";
  for (const auto& [method, n] : f.streams) {
    std::printf("%s%s: %s", sep, Quoted(method).c_str(), Number(n).c_str());
    sep = ", ";
  }
  std::printf("}\n}\n");
}

// "motion.v1.Kinematics/ComputeFk" -> "Kinematics/ComputeFk" (the table is narrow).
std::string ShortMethod(const std::string& method) {
  const std::string prefix = std::string(motion::v1::kApiPackage) + ".";
  return method.compare(0, prefix.size(), prefix) == 0 ? method.substr(prefix.size()) : method;
}

void PrintTable(const Figures& f, const std::string& address) {
  std::printf("motiond %s at %s (counts since start)\n\n", f.version.c_str(), address.c_str());
  // "OK 25, InvalidArgument 4" per method; the column is as wide as the widest.
  std::map<std::string, std::string> by_code;
  int width = 20;
  for (const auto& [method, codes] : f.handled) {
    std::string& text = by_code[method];
    for (const auto& [code, count] : codes) {
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.0f", text.empty() ? "" : ", ", code.c_str(), count);
      text += part;
    }
    width = std::max(width, static_cast<int>(text.size()));
  }
  std::printf("%-30s %8s  %-*s %10s %10s\n", "requests", "total", width, "by code", "p50", "p99");
  for (const auto& [method, codes] : f.handled) {
    double total = 0;
    for (const auto& [code, count] : codes) total += count;
    const auto l = f.rpc_latency.find(method);
    const Latency latency = l == f.rpc_latency.end() ? Latency{} : l->second;
    std::printf("%-30s %8.0f  %-*s %10s %10s\n", ShortMethod(method).c_str(), total, width,
                by_code[method].c_str(), Duration(latency.p50).c_str(),
                Duration(latency.p99).c_str());
  }
  if (f.handled.empty()) std::printf("  (none yet)\n");

  std::printf("\n%-30s %8s  %-*s %10s %10s\n", "solve latency", "count", width, "", "p50", "p99");
  for (const auto& [operation, l] : f.solve) {
    std::printf("%-30s %8.0f  %-*s %10s %10s\n", operation.c_str(), l.count, width, "",
                Duration(l.p50).c_str(), Duration(l.p99).c_str());
  }
  if (f.solve.empty()) std::printf("  (none yet)\n");

  std::printf("\n");
  if (f.ik_solves > 0) {
    std::string failures;
    for (const auto& [result, n] : f.ik_results) {
      if (result == "ok" || n == 0) continue;
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.0f", failures.empty() ? "" : ", ", result.c_str(),
                    n);
      failures += part;
    }
    std::printf("%-14s %.2f %% (%.0f of %.0f)%s%s\n", "IK success", 100 * f.ik_ok / f.ik_solves,
                f.ik_ok, f.ik_solves, failures.empty() ? "" : "; failed: ", failures.c_str());
  } else {
    std::printf("%-14s - (no IK solves yet)\n", "IK success");
  }
  std::printf("%-14s %.0f robots, %s\n", "registry", f.robots, Bytes(f.registry_bytes).c_str());
  std::printf("%-14s %.0f of %.0f workers busy, %.0f queued (capacity %.0f)\n", "solver pool",
              f.busy, f.workers, f.queue, f.queue_capacity);
  std::string streams;
  for (const auto& [method, n] : f.streams) {
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.0f", streams.empty() ? "" : ", ", method.c_str(), n);
    streams += part;
  }
  std::printf("%-14s %s\n", "open streams", streams.empty() ? "0" : streams.c_str());
}

}  // namespace

int RunStats(const CommandLine& cli) {
  const std::string address = cli.Flag("metrics", "127.0.0.1:9464");
  const auto timeout = std::chrono::milliseconds(
      static_cast<long>(1000 * std::atof(cli.Flag("timeout", "10").c_str())));
  std::string body, error;
  if (!HttpGet(address, "/metrics", timeout, &body, &error)) {
    std::fprintf(stderr,
                 "motionctl: cannot read metrics: %s\n  (motiond --metrics_listen; "
                 "pass --metrics=HOST:PORT)\n",
                 error.c_str());
    return 2;
  }
  MetricsPage page;
  if (!ParseMetricsText(body, &page, &error)) {
    std::fprintf(stderr, "motionctl: http://%s/metrics is not Prometheus text: %s\n",
                 address.c_str(), error.c_str());
    return 2;
  }
  if (page.Find("motiond_build_info").empty()) {
    std::fprintf(stderr, "motionctl: http://%s/metrics is not motiond's (no motiond_build_info)\n",
                 address.c_str());
    return 2;
  }
  const Figures figures = Collect(page);
  if (cli.Has("json")) {
    PrintJson(figures);
  } else {
    PrintTable(figures, address);
  }
  return 0;
}

}  // namespace motionctl
