import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withPanelDb } from "../support/panel-db.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitForExit, waitUntil } from "../support/poll.ts";
import { adminClient } from "../support/test-panel.ts";

/**
 * kill -9 with writes in flight: every write the panel acknowledged (a 2xx
 * answer) is there after the crash, the SQLite file passes
 * `PRAGMA integrity_check`, and the panel starts again on it and serves them.
 * Three kinds of write, each with its own key so each can be checked alone:
 * accounts (an argon2 hash, then one row), user settings (one upsert) and
 * nodes (a sealed secret).
 */
const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";

describe("kill -9 with writes in flight", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-durable-"));
  const started: PanelProcess[] = [];
  afterAll(async () => {
    for (const p of started.reverse()) await p.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every acknowledged write and a sound database", async () => {
    const first = await startPanel({ dataDir, postgresUrl: onSqlite ? undefined : inject("postgresUrl") });
    started.push(first);
    const api = await adminClient(first);
    const acked = { users: [] as string[], settings: [] as string[], nodes: [] as string[] };
    let stop = false;
    let n = 0;
    // Four writers, each sending its next write as soon as the last one is answered.
    const writer = async (w: number) => {
      while (!stop) {
        const i = n++;
        const kind = (i + w) % 3;
        try {
          if (kind === 0) {
            const name = `durable${i}`;
            const res = await api.post("/api/users", {
              username: name,
              email: `${name}@example.com`,
              password: "durable-pass-1",
            });
            if (res.status === 200) acked.users.push(`${name}@example.com`);
          } else if (kind === 1) {
            const key = `durable.${i}`;
            const res = await api.put(`/api/userSettings/${key}`, { value: `v${i}` });
            if (res.status === 204) acked.settings.push(key);
          } else {
            const name = `durable-node-${i}`;
            const res = await api.post("/api/nodes/", {
              name,
              publicHost: "d.example.com",
              publicPort: 8443,
              privateHost: "10.0.0.7",
              privatePort: 8080,
              sftpPort: 5657,
            });
            if (res.status === 200) acked.nodes.push(name);
          }
        } catch {
          // The connection died with the panel: this write was never acknowledged.
          return;
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await waitUntil(
      async () => acked.users.length + acked.settings.length + acked.nodes.length >= 60,
      20_000,
      10,
    );
    // In the middle of the stream: writes are in flight at this moment.
    process.kill(first.pid, "SIGKILL");
    await waitForExit(first.pid);
    stop = true;
    await Promise.all(writers);
    expect(acked.users.length).toBeGreaterThan(0);
    expect(acked.settings.length).toBeGreaterThan(0);
    expect(acked.nodes.length).toBeGreaterThan(0);

    if (onSqlite) {
      // As the crash left it (opening it replays the WAL, as the panel's next start would).
      const db = new SQLite(path.join(dataDir, "outpost.db"));
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        db.close();
      }
    }

    const second = await startPanel({ dataDir, env: { DATABASE_URL: first.databaseUrl ?? "" } });
    started.push(second);
    const stored = await withPanelDb({ ...second, databaseUrl: first.databaseUrl }, async (db) => ({
      users: (await db.selectFrom("users").select("email").execute()).map((r) => r.email),
      settings: (await db.selectFrom("user_settings").select("key").execute()).map((r) => r.key),
      nodes: (await db.selectFrom("nodes").select("name").execute()).map((r) => r.name),
    }));
    for (const kind of ["users", "settings", "nodes"] as const) {
      const missing = acked[kind].filter((k) => !stored[kind].includes(k));
      expect(missing, `acknowledged ${kind} lost`).toEqual([]);
    }
    // The restarted panel serves them: a node written just before the crash opens its sealed secret.
    const again = await adminClient(second);
    const nodes = (await again.get("/api/nodes")).body as { id: number; name: string }[];
    const node = nodes.find((x) => x.name === acked.nodes[0])!;
    expect((await again.get(`/api/nodes/${node.id}/deployment`)).status).toBe(200);
  }, 120_000);
});
