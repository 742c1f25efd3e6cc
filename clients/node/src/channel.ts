// One gRPC channel per client, balanced round robin over every address the
// target resolves to, so a list of replicas (or a headless Service's DNS
// name) spreads calls over all of them.

import { readFileSync } from "node:fs";

import * as grpc from "@grpc/grpc-js";

export interface ChannelSettings {
  /** "host:port", "10.0.0.1:50051,10.0.0.2:50051", or any gRPC target URI ("dns:///motiond:50051"). */
  target: string;
  tls?: boolean;
  /** PEM roots that verify the server (empty: system roots). Setting it turns TLS on. */
  caFile?: string;
  /** Client certificate and key for mTLS. */
  certFile?: string;
  keyFile?: string;
  /** Overrides the name checked in the server's certificate. */
  serverName?: string;
  /** Extra grpc-js channel options (reconnect backoff, message sizes, ...). */
  channelOptions?: grpc.ChannelOptions;
}

/**
 * The gRPC target for a comma-separated address list: "a:1,b:2" becomes
 * "ipv4:a:1,b:2" (or ipv6: for bracketed literals), grpc's static
 * multi-address scheme. Anything else is passed through.
 */
export function resolveTarget(target: string): string {
  if (!target.includes(",") || target.includes("://") || /^(ipv4|ipv6|unix|dns):/.test(target)) {
    return target;
  }
  return `${target.trimStart().startsWith("[") ? "ipv6" : "ipv4"}:${target}`;
}

function readIfGiven(file: string | undefined): Buffer | null {
  return file ? readFileSync(file) : null;
}

export function channelCredentials(settings: ChannelSettings): grpc.ChannelCredentials {
  if (!settings.tls && !settings.caFile && !settings.certFile) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(
    readIfGiven(settings.caFile),
    readIfGiven(settings.keyFile),
    readIfGiven(settings.certFile),
  );
}

// Big enough for the largest trajectory chunk and RobotInfo with meshes.
const MAX_RECEIVE_BYTES = 64 << 20;

export function createChannel(settings: ChannelSettings): grpc.Channel {
  const options: grpc.ChannelOptions = {
    "grpc.service_config": JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    "grpc.max_receive_message_length": MAX_RECEIVE_BYTES,
    ...(settings.serverName ? { "grpc.ssl_target_name_override": settings.serverName } : {}),
    ...settings.channelOptions,
  };
  return new grpc.Channel(resolveTarget(settings.target), channelCredentials(settings), options);
}
