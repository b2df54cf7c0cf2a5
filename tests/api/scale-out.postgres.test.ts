import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { PanelClient } from "../support/http-client.ts";
import { openLive } from "../support/live-client.ts";
import { waitForExit, waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { openServerSocket } from "../support/socket-client.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const onPostgres = process.env.OUTPOST_TEST_DB === "postgres";
const admin = {
  email: "scale-admin@example.com",
  username: "scaleadmin",
  password: "scale-admin-password-1",
};

/** The fenced `sh` blocks of the scale-out guide (docs/scale-out.md), in order. */
export function scaleOutCommands(guide: string): string[] {
  if (!guide.startsWith("# Scale out")) throw new Error("docs/scale-out.md is not the scale-out guide");
  const blocks = [...guide.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)];
  // Steps are indented list items: their blocks are taken back to the margin.
  return blocks.map(([, indent, body]) =>
    body
      .split("\n")
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join("\n"),
  );
}

/**
 * The scale-out guide (docs/scale-out.md), followed word for word: three panels on one PostgreSQL
 * database (a throw-away one in the suite's cluster) behind Debian's HAProxy
 * with deploy/haproxy.cfg. The section's first block (the operator's values)
 * is replaced by this run's; the others run as written, in a folder that
 * holds the checkout's files (linked) and its own `data/`.
 *
 * Then, through the balancer and the panels: throttles and caps count across
 * panels, a console through any panel works for a server on a remote node,
 * and a panel killed with kill -9 under a load of writes loses no write it
 * acknowledged, while requests after the balancer noticed all succeed and a
 * console reopened through the balancer gets back what was printed meanwhile.
 */
describe.runIf(onPostgres)("the scale-out guide: three panels behind HAProxy on one PostgreSQL", () => {
  let work: string;
  let lb: string;
  let panels: string[];
  /** HAProxy's status page (CSV), to see when it has marked a panel down. */
  let stats: string;
  let databaseUrl: string;
  let dropDatabase = async () => {};
  let daemon: DaemonProcess | undefined;
  const pidOf = (name: string) => Number(fs.readFileSync(path.join(work, "data", `${name}.pid`), "utf8"));

  beforeAll(async () => {
    const cluster = inject("postgresUrl");
    const name = `t_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    databaseUrl = cluster.replace(/\/[^/]*$/, `/${name}`);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: cluster });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
    // The checkout's files, linked, beside a `data/` of this run's own.
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-scale-"));
    for (const entry of fs.readdirSync(repoRoot))
      if (!["data", ".git"].includes(entry))
        fs.symlinkSync(path.join(repoRoot, entry), path.join(work, entry));
    const ports = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    lb = `http://127.0.0.1:${ports[0]}`;
    panels = ports.slice(1, 4).map((p) => `http://127.0.0.1:${p}`);
    stats = `http://127.0.0.1:${ports[4]}/stats;csv`;
    const [values, ...steps] = scaleOutCommands(
      fs.readFileSync(path.join(repoRoot, "docs", "scale-out.md"), "utf8"),
    );
    expect(values).toContain("export DATABASE_URL=");
    const ours = [
      `export DATABASE_URL=${databaseUrl}`,
      `export OUTPOST_SECRET_KEY=${randomBytes(32).toString("hex")}`,
      `export OUTPOST_PUBLIC_URL=${lb}`,
      `export OUTPOST_LB_BIND=127.0.0.1:${ports[0]} OUTPOST_LB_STATS=127.0.0.1:${ports[4]}`,
      `export OUTPOST_PANEL_1=127.0.0.1:${ports[1]} OUTPOST_PANEL_2=127.0.0.1:${ports[2]} OUTPOST_PANEL_3=127.0.0.1:${ports[3]}`,
      // The first administrator, made by the first panel to start (OUTPOST_ADMIN_*).
      `export OUTPOST_ADMIN_EMAIL=${admin.email} OUTPOST_ADMIN_USERNAME=${admin.username} OUTPOST_ADMIN_PASSWORD=${admin.password}`,
    ].join("\n");
    const script = `set -euo pipefail\n${ours}\n${steps.join("\n")}`;
    const { code, output } = await runBash(script, work, 120_000);
    expect(code, output).toBe(0);
    // The balancer answers once one panel does: each panel is up too (or its log says why not).
    for (const [i, base] of panels.entries()) {
      const log = () => fs.readFileSync(path.join(work, "data", `panel${i + 1}.log`), "utf8");
      await waitUntil(
        async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status === 200,
        60_000,
        100,
      ).catch(() => {
        throw new Error(`panel ${i + 1} did not start:\n${log()}`);
      });
    }
  }, 180_000);

  afterAll(async () => {
    await daemon?.destroy();
    for (const name of ["haproxy", "panel1", "panel2", "panel3"]) {
      let pid: number;
      try {
        pid = pidOf(name);
      } catch {
        continue;
      }
      try {
        process.kill(pid, "SIGTERM");
        await waitForExit(pid);
      } catch {
        // already gone
      }
    }
    await dropDatabase();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const signedIn = async (base: string) => {
    const client = new PanelClient(base);
    const res = await client.login(admin.email, admin.password);
    expect(res.status, res.text).toBe(200);
    return client;
  };

  it("answers GET /api/health through the balancer and on each panel", async () => {
    for (const base of [lb, ...panels]) {
      const res = await new PanelClient(base).get("/api/health");
      expect([base, res.status, res.body]).toEqual([base, 200, { database: "ok" }]);
    }
  });

  it("holds a client's sign-in guesses at the same count however they spread over the panels", async () => {
    const api = await signedIn(lb);
    const user = newUser("guessed");
    expect((await api.post("/api/users", user)).status).toBe(200);
    // One client (its address as the balancer forwards it), guessing through each panel in turn.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const client = new PanelClient(panels[i % 3]);
      await client.prime();
      const res = await client.post(
        "/auth/login",
        { email: user.email, password: `wrong-${i}` },
        { headers: { "x-forwarded-for": "203.0.113.7" } },
      );
      statuses.push(res.status);
    }
    // Five free failures, as on one panel; then the sixth waits, whichever panel it reaches.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    // Another client's right password still goes through.
    const elsewhere = new PanelClient(lb);
    await elsewhere.prime();
    const other = await elsewhere.post(
      "/auth/login",
      { email: user.email, password: user.password },
      { headers: { "x-forwarded-for": "198.51.100.9" } },
    );
    expect(other.status).toBe(200);
  });

  it("caps one session's sockets over every panel together", async () => {
    // OUTPOST_MAX_CONNECTIONS_PER_SESSION is 50 by default: 50 live sockets spread over three panels.
    const api = await signedIn(lb);
    const sockets = [];
    for (let i = 0; i < 50; i++) sockets.push(await openLive(api, { baseUrl: panels[i % 3] }));
    const refused = await Promise.all(
      panels.map((baseUrl) => openLive(api, { baseUrl }).catch((e: Error) => e)),
    );
    for (const r of refused) expect(String(r)).toContain("429");
    // A socket closed on one panel frees a place on any other.
    sockets.pop()?.close();
    await waitUntil(
      async () => {
        const s = await openLive(api, { baseUrl: panels[0] }).catch(() => undefined);
        if (s) sockets.push(s);
        return s !== undefined;
      },
      5000,
      50,
    );
    for (const s of sockets) s.close();
  });

  it("runs a console through any panel for a server on a remote node; kill -9 of a panel loses no acknowledged write, later requests succeed, and the console resyncs through the balancer", async () => {
    const api = await signedIn(lb);
    const node = await addRemoteNode(api, "scale-node");
    daemon = node.daemon;
    const id = "scale01";
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: "scale",
      node: node.nodeId,
    });
    expect(created.status, created.text).toBe(200);
    // The same console through each panel.
    const consoles = await Promise.all(
      panels.map((base) => signedIn(base).then((c) => openServerSocket(c, id))),
    );
    expect((await api.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
    await waitUntil(async () => consoles.every((c) => c.consoleText().includes("ready hello")), 15_000, 50);
    const send = (client: PanelClient, line: string) =>
      client.call("POST", `/api/servers/${id}/console`, {
        raw: line,
        headers: { "content-type": "text/plain" },
      });
    expect((await send(api, "before")).status).toBe(204);
    await waitUntil(async () => consoles.every((c) => c.consoleText().includes("pong before")), 10_000, 50);
    const shownUntil = Date.now() * 1000;

    // A load of writes through the balancer while panel 2 is killed.
    const acknowledged: string[] = [];
    /** Failed writes: when each was sent, and its answer (0: no answer). */
    const failed: { sentAt: number; status: number }[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const user = newUser(`load${w}x${i}`);
        const sentAt = Date.now();
        const res = await api.post("/api/users", user).catch(() => ({ status: 0 }));
        if (res.status === 200) acknowledged.push(user.username);
        else failed.push({ sentAt, status: res.status });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await waitUntil(async () => acknowledged.length >= 20, 20_000, 20);
    const victim = pidOf("panel2");
    process.kill(victim, "SIGKILL");
    await waitForExit(victim);
    // What was printed while the socket through panel 2 was gone.
    expect((await consoles[1].closed).code).not.toBe(1000);
    expect((await send(api, "meanwhile")).status).toBe(204);
    // The balancer notices within fall × inter (2 × 1 s): from then on every request succeeds.
    await waitUntil(async () => (await panelStates(stats)).panel2 === "DOWN", 15_000, 100);
    const noticedAt = Date.now();
    const before = acknowledged.length;
    await waitUntil(async () => acknowledged.length >= before + 30, 20_000, 20);
    writing = false;
    await Promise.all(writers);
    expect(failed.filter((f) => f.sentAt >= noticedAt)).toEqual([]);
    const checks = await Promise.all(Array.from({ length: 30 }, () => api.get("/api/health")));
    expect(checks.map((r) => r.status)).toEqual(Array(30).fill(200));

    // Every write the panels acknowledged is there, read through the balancer.
    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const res = await api.get(`/api/users?limit=100&page=${page}`);
      expect(res.status).toBe(200);
      for (const u of res.body.users) listed.add(u.username);
      if (page >= res.body.paging.maxPage || res.body.users.length === 0) break;
    }
    expect(acknowledged.filter((name) => !listed.has(name))).toEqual([]);

    // The browser's reconnect: a new socket through the balancer, then the output since what it
    // had shown, read from the node's ring (src/state/serverLive.ts catchUp).
    const again = await openServerSocket(await signedIn(lb), id);
    const missed = await api.get(`/api/servers/${id}/console?time=${shownUntil}`);
    expect(missed.status).toBe(200);
    expect(Buffer.from(missed.body.logs, "base64").toString()).toContain("pong meanwhile");
    expect((await send(api, "after")).status).toBe(204);
    await waitUntil(async () => again.consoleText().includes("pong after"), 10_000, 50);
    // The sockets through the panels that live were never cut.
    for (const c of [consoles[0], consoles[2]]) expect(c.consoleText()).toContain("pong meanwhile");
    for (const c of [...consoles, again]) c.close();
    await api.post(`/api/servers/${id}/kill`);
  }, 120_000);
});

/** Each panel's state as HAProxy sees it (UP, DOWN, …), from its status page. */
async function panelStates(stats: string): Promise<Record<string, string>> {
  const lines = (await (await fetch(stats)).text()).split("\n");
  const columns = lines[0].replace(/^# /, "").split(",");
  const states: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const row = line.split(",");
    if (row[columns.indexOf("pxname")] === "panels")
      states[row[columns.indexOf("svname")]] = row[columns.indexOf("status")];
  }
  return states;
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn("bash", ["-c", script], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    // "exit", not "close": HAProxy, started in the background, may hold the output pipe.
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}
