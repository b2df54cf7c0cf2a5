import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { saveDefinition } from "../../server/daemon/servers/definition-file.ts";
import { RemoteNode } from "../../server/link/remote-node.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitForExit } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient } from "../support/test-panel.ts";

/**
 * Leftovers of a crash from before creations were claimed (issue 13, finding
 * 10): a node holds a server's folder and definition, the panel has neither a
 * row nor a claim for its id. Creating that id again must work — the panel
 * takes the leftover back from the node and creates afresh — while a server
 * the panel has recorded is never touched.
 */
const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";

describe("a node's leftover the panel knows nothing of", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-leftover-"));
  const started: PanelProcess[] = [];
  let daemon: DaemonProcess | undefined;
  afterAll(async () => {
    for (const p of started.reverse()) await p.stop();
    await daemon?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is taken back when its id is created, on the local and on a remote node; recorded servers stay", async () => {
    const first = await startPanel({ dataDir, postgresUrl: onSqlite ? undefined : inject("postgresUrl") });
    started.push(first);
    const api = await adminClient(first);
    const remote = await addRemoteNode(api, "leftover-node");
    daemon = remote.daemon;
    const nodes = [
      { id: 0, dir: path.join(dataDir, "node", "servers") },
      { id: remote.nodeId, dir: path.join(daemon.config.dataDir, "servers") },
    ];
    const body = (node: number, name: string) => ({ ...echoDefinition(), name, node, users: ["admin"] });
    for (const node of nodes) {
      expect((await api.put(`/api/servers/kept${node.id}`, body(node.id, "Kept"))).status).toBe(200);
    }

    // The remote node's leftover is made through the node's own API, as the panel would have.
    const config = daemon.config;
    const nodeApi = new RemoteNode({ nodeId: config.nodeId, secret: config.secret, baseUrl: daemon.baseUrl });
    await nodeApi.servers.createServer(`left${remote.nodeId}`, {
      ...echoDefinition(),
      id: `left${remote.nodeId}`,
    });
    fs.writeFileSync(path.join(nodes[1].dir, `left${remote.nodeId}`, "old.txt"), "from before the crash");
    // The local node's leftover: its definition written the way the node writes it, found at the next start.
    process.kill(first.pid, "SIGKILL");
    await waitForExit(first.pid);
    await saveDefinition(nodes[0].dir, "left0", { ...echoDefinition(), id: "left0" } as never);
    fs.mkdirSync(path.join(nodes[0].dir, "left0"));
    fs.writeFileSync(path.join(nodes[0].dir, "left0", "old.txt"), "from before the crash");
    const second = await startPanel({ dataDir, env: { DATABASE_URL: first.databaseUrl ?? "" } });
    started.push(second);
    const again: PanelClient = await adminClient(second);

    for (const node of nodes) {
      const id = `left${node.id}`;
      expect((await again.get(`/api/servers/${id}`)).status).toBe(404);
      const created = await again.put(`/api/servers/${id}`, body(node.id, "Again"));
      expect(created.status, created.text).toBe(200);
      expect((await again.get(`/api/servers/${id}`)).body.server.name).toBe("Again");
      // Created afresh: nothing of the leftover's folder remains.
      expect(fs.existsSync(path.join(node.dir, id, "old.txt"))).toBe(false);
      expect((await again.delete(`/api/servers/${id}`)).status).toBe(204);
      expect(fs.existsSync(path.join(node.dir, `${id}.json`))).toBe(false);

      // A recorded server is never taken for a leftover: its id stays taken and its files stay.
      const kept = `kept${node.id}`;
      fs.writeFileSync(path.join(node.dir, kept, "mine.txt"), "keep me");
      const clash = await again.put(`/api/servers/${kept}`, body(node.id, "Clash"));
      expect(clash.status).toBe(409);
      expect(fs.readFileSync(path.join(node.dir, kept, "mine.txt"), "utf8")).toBe("keep me");
      expect((await again.get(`/api/servers/${kept}`)).body.server.name).toBe("Kept");
    }
  }, 120_000);
});
