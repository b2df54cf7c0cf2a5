import { afterAll, beforeAll, inject } from "vitest";
import type { DaemonProcess } from "./daemon-process.ts";
import { PanelClient } from "./http-client.ts";
import { admin, type PanelProcess, startPanel } from "./panel-process.ts";
import { addRemoteNode } from "./remote-node.ts";

/**
 * Starts a panel for the calling test file on the database its project names
 * (OUTPOST_TEST_DB), and stops it after the file. Returns a getter because the
 * panel exists only once beforeAll has run.
 */
export function usePanel(opts: { env?: Record<string, string>; webDir?: string } = {}): () => PanelProcess {
  let panel: PanelProcess | undefined;
  beforeAll(async () => {
    const postgresUrl = process.env.OUTPOST_TEST_DB === "postgres" ? inject("postgresUrl") : undefined;
    panel = await startPanel({ ...opts, postgresUrl });
  });
  afterAll(async () => {
    await panel?.stop();
  });
  return () => {
    if (!panel) throw new Error("the panel has not started");
    return panel;
  };
}

export interface PanelWithRemoteNode {
  panel: PanelProcess;
  /** The administrator, signed in. */
  api: PanelClient;
  /** The remote node's id (the panel's own node is 0). */
  nodeId: number;
  daemon: DaemonProcess;
}

/**
 * usePanel, with the administrator signed in and a remote node (a real daemon, destroyed after
 * the file) beside the panel's local node. Returns a getter, as usePanel does.
 */
export function usePanelWithRemoteNode(nodeName: string): () => PanelWithRemoteNode {
  const panel = usePanel();
  let ready: PanelWithRemoteNode | undefined;
  beforeAll(async () => {
    const api = await adminClient(panel());
    ready = { panel: panel(), api, ...(await addRemoteNode(api, nodeName)) };
  });
  afterAll(async () => {
    await ready?.daemon.destroy();
  });
  return () => {
    if (!ready) throw new Error("the panel and its remote node have not started");
    return ready;
  };
}

export async function adminClient(panel: PanelProcess): Promise<PanelClient> {
  const client = new PanelClient(panel.url);
  const res = await client.login(admin.email, admin.password);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  return client;
}

/** Registers a plain user through the API (turning registration on first, as an admin would). */
export async function registeredClient(
  panel: PanelProcess,
  user: { username: string; email: string; password: string },
): Promise<PanelClient> {
  const adminApi = await adminClient(panel);
  await adminApi.put("/api/settings/panel.registrationEnabled", { value: true });
  const client = new PanelClient(panel.url);
  await client.prime();
  const res = await client.post("/auth/register", user);
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  return client;
}

export { admin, PanelClient };
