import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitForExit, waitUntil } from "../support/poll.ts";
import { adminClient } from "../support/test-panel.ts";

/**
 * kill -9 of the panel while it creates a server (issue 13, finding 10): the
 * node has made the server's folder and definition, the panel has not yet
 * recorded it. A real crash at that very moment: the node's answers pass
 * through a relay the test holds, so the panel never hears back, and the
 * test kills it once the node has written the definition. After a restart
 * the id must not be stuck: the leftover is taken back and the id can be
 * created, read and deleted.
 */
const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";

/** A TCP relay to the daemon whose answers can be held back (a panel waiting on its node). */
async function startRelay(target: number): Promise<{ port: number; hold: boolean; close(): void }> {
  const sockets = new Set<net.Socket>();
  const relay = {
    port: await freePort(),
    hold: false,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", (d) => upstream.write(d));
    // Held answers are never delivered: the panel is killed while it waits for them.
    upstream.on("data", (d) => relay.hold || client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(relay.port, "127.0.0.1", resolve));
  return relay;
}

describe("kill -9 while a server is being created", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-create-crash-"));
  const started: PanelProcess[] = [];
  let daemon: DaemonProcess | undefined;
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
  afterAll(async () => {
    for (const p of started.reverse()) await p.stop();
    relay?.close();
    await daemon?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("leaves no stuck id: the node's leftover is taken back at restart and the id created again", async () => {
    const first = await startPanel({ dataDir, postgresUrl: onSqlite ? undefined : inject("postgresUrl") });
    started.push(first);
    const api = await adminClient(first);
    const daemonPort = await freePort();
    relay = await startRelay(daemonPort);
    const node = await api.post("/api/nodes", {
      name: "crash-node",
      publicHost: "127.0.0.1",
      publicPort: await freePort(),
      privateHost: "127.0.0.1",
      privatePort: relay.port,
      sftpPort: await freePort(),
    });
    expect(node.status, node.text).toBe(200);
    const nodeId = node.body.id as number;
    const config = (await api.get(`/api/nodes/${nodeId}/deployment`)).body.config;
    daemon = await startDaemon({ ...config, listen: { ...config.listen, port: daemonPort } });
    const definitionFile = (id: string) => path.join(daemon!.config.dataDir, "servers", `${id}.json`);
    const body = { ...echoDefinition(), name: "Crashed", node: nodeId, users: ["admin"] };
    // A pool of ports on the node: each creation takes one of them (issue 36).
    const pool = await freePort();
    expect(
      (await api.post(`/api/nodes/${nodeId}/allocations`, { ip: "0.0.0.0", ports: `${pool}-${pool + 1}` }))
        .status,
    ).toBe(200);
    const holders = async (client: typeof api) =>
      Object.fromEntries(
        (
          (await client.get(`/api/nodes/${nodeId}/allocations`)).body as {
            port: number;
            serverId: string | null;
          }[]
        ).map((a) => [a.port, a.serverId]),
      );

    // The node answers normally first: a server created and kept.
    expect((await api.put("/api/servers/keptserver", body)).status).toBe(200);

    relay.hold = true;
    const pending = api.put("/api/servers/crashserver", body).catch(() => undefined);
    await waitUntil(async () => fs.existsSync(definitionFile("crashserver")), 20_000, 20);
    process.kill(first.pid, "SIGKILL");
    await waitForExit(first.pid);
    await pending;
    relay.hold = false;

    const second = await startPanel({ dataDir, env: { DATABASE_URL: first.databaseUrl ?? "" } });
    started.push(second);
    // The leftover is taken back without anyone asking (the node drops its definition, then its folder)...
    const leftoverFolder = path.join(daemon.config.dataDir, "servers", "crashserver");
    await waitUntil(
      async () => !fs.existsSync(definitionFile("crashserver")) && !fs.existsSync(leftoverFolder),
      20_000,
    );
    expect(fs.existsSync(leftoverFolder)).toBe(false);
    // ...and what was recorded is left alone.
    expect(fs.existsSync(definitionFile("keptserver"))).toBe(true);
    const again = await adminClient(second);
    expect((await again.get("/api/servers/keptserver")).status).toBe(200);
    expect((await again.get("/api/servers/crashserver")).status).toBe(404);
    // The port the cut-short creation was given is free again; the kept server keeps its own.
    expect(await holders(again)).toEqual({ [pool]: "keptserver", [pool + 1]: null });

    const created = await again.put("/api/servers/crashserver", body);
    expect(created.status, created.text).toBe(200);
    expect((await again.get("/api/servers/crashserver")).status).toBe(200);
    expect((await again.delete("/api/servers/crashserver")).status).toBe(204);
    expect(fs.existsSync(definitionFile("crashserver"))).toBe(false);
  }, 120_000);
});
