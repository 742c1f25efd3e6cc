#pragma once

#include "clients/motionctl/command_line.h"

namespace motionctl {

/// \brief `motionctl stats`: reads http://--metrics/metrics (default
/// 127.0.0.1:9464) and prints the server's key figures — requests by method
/// and code with RPC latency, solve latency p50/p99 by operation (estimated
/// from the histogram buckets as PromQL's histogram_quantile does), IK
/// success ratio, registry size, solver pool — as a short table, or with
/// --json as one object. Counts are since the server started. Returns the
/// exit code.
int Stats(const CommandLine& cli);

}  // namespace motionctl
