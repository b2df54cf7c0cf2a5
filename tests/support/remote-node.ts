import { type DaemonProcess, startDaemon } from "./daemon-process.ts";
import { freePort } from "./free-port.ts";
import type { PanelClient } from "./http-client.ts";

/** A new node's fields for one on this machine: loopback addresses, on ports nothing listens on. */
export async function loopbackNode(name: string) {
  return {
    name,
    publicHost: "127.0.0.1",
    publicPort: await freePort(),
    privateHost: "127.0.0.1",
    privatePort: await freePort(),
    sftpPort: await freePort(),
  };
}

/**
 * Adds a node through the panel's API and starts a real daemon from its deployment config.
 * Throws rather than asserting, so that Vitest and Playwright tests alike can use it.
 */
export async function addRemoteNode(
  api: PanelClient,
  name: string,
  /** Environment variables for the daemon besides the test's own. */
  env: Record<string, string> = {},
  /** What runs the daemon's command line (startDaemon's launcher). */
  launcher: string[] = [],
): Promise<{ nodeId: number; daemon: DaemonProcess }> {
  const node = await api.post("/api/nodes", await loopbackNode(name));
  if (node.status !== 200) throw new Error(`adding node ${name} failed: ${node.status} ${node.text}`);
  const deployment = await api.get(`/api/nodes/${node.body.id}/deployment`);
  if (deployment.status !== 200) throw new Error(`node ${name}'s deployment: ${deployment.status}`);
  return { nodeId: node.body.id, daemon: await startDaemon(deployment.body.config, env, launcher) };
}
