import { expect } from "vitest";
import { type DaemonProcess, startDaemon } from "./daemon-process.ts";
import { freePort } from "./free-port.ts";
import type { PanelClient } from "./http-client.ts";

/** Adds a node through the panel's API and starts a real daemon from its deployment config. */
export async function addRemoteNode(
  api: PanelClient,
  name: string,
  /** Environment variables for the daemon besides the test's own. */
  env: Record<string, string> = {},
  /** What runs the daemon's command line (startDaemon's launcher). */
  launcher: string[] = [],
): Promise<{ nodeId: number; daemon: DaemonProcess }> {
  const node = await api.post("/api/nodes", {
    name,
    publicHost: "127.0.0.1",
    publicPort: await freePort(),
    privateHost: "127.0.0.1",
    privatePort: await freePort(),
    sftpPort: await freePort(),
  });
  expect(node.status, node.text).toBe(200);
  const deployment = await api.get(`/api/nodes/${node.body.id}/deployment`);
  expect(deployment.status).toBe(200);
  return { nodeId: node.body.id, daemon: await startDaemon(deployment.body.config, env, launcher) };
}
