import type Docker from "dockerode";

const defaultSocket = "/var/run/docker.sock";

/**
 * Where this node reaches its Docker engine: the configured socket, else a
 * `unix://` DOCKER_HOST, else the engine's usual socket. Only local sockets:
 * an engine on another host could not bind-mount this node's server folders.
 */
export function dockerSocketPath(configured?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (configured) return configured;
  const host = env.DOCKER_HOST;
  if (host?.startsWith("unix://")) return host.slice("unix://".length);
  return defaultSocket;
}

/**
 * An Engine API client on that socket. The client library (and the gRPC stack it brings) loads
 * on first use: a node whose servers never use Docker does not hold it in memory.
 */
export async function dockerClient(socketPath: string): Promise<Docker> {
  const { default: DockerClient } = await import("dockerode");
  return new DockerClient({ socketPath });
}
