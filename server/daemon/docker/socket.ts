import type Docker from "dockerode";

const defaultSocket = "/var/run/docker.sock";

/**
 * Where this node reaches its Docker engine: the configured socket (its config module falls back
 * to a `unix://` DOCKER_HOST: shared-settings.ts), else the engine's usual socket.
 */
export function dockerSocketPath(configured?: string): string {
  return configured || defaultSocket;
}

/**
 * An Engine API client on that socket. The client library (and the gRPC stack it brings) loads
 * on first use: a node whose servers never use Docker does not hold it in memory.
 */
export async function dockerClient(socketPath: string): Promise<Docker> {
  const { default: DockerClient } = await import("dockerode");
  return new DockerClient({ socketPath });
}
