import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { newUser } from "../support/expect-api.ts";
import { setGlobalScopes, setServerScopes, withPanelDb } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { runSftp } from "../support/sftp-client.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

interface Entry {
  id: number;
  time: string;
  actorKind: string;
  userId: number | null;
  actor: string;
  clientId: string | null;
  address: string;
  action: string;
  ok: boolean;
  serverId: string | null;
  serverName?: string | null;
  subject: string;
  subjectName?: string | null;
  details: Record<string, unknown>;
}

/** What a user needs on a server for what these tests do there. */
const userScopes = [
  "server.view",
  "server.start",
  "server.console",
  "server.console.send",
  "server.files.view",
  "server.files.edit",
  "server.sftp",
  "server.tasks.view",
  "server.tasks.create",
  "server.tasks.run",
];

describe("activity log", () => {
  // A trusted proxy on loopback: the address recorded is the one X-Forwarded-For names.
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true", OUTPOST_ACTIVITY_PURGE_SECONDS: "1" } });
  const user = newUser("actor");
  const viewer = newUser("actviewer");
  const localId = "act0local";
  const remoteId = "act0remote";
  let api: Client;
  let userApi: Client;
  let userId: number;
  let daemon: DaemonProcess;
  let work: string;

  /** Every entry the administrator's list answers for a query (all pages). */
  const entries = async (query: string): Promise<Entry[]> => {
    const res = await api.get(`/api/activity?limit=100&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.activity;
  };
  /** Waits for the entries (they come from a node a moment later), then checks no more come. */
  const settled = async (query: string, count: number): Promise<Entry[]> => {
    await waitUntil(async () => (await entries(query)).length >= count, 15_000);
    // Nothing to wait for: a while in which a second copy of an entry may not come.
    await new Promise((r) => setTimeout(r, 300));
    return entries(query);
  };
  const from = (address: string) => ({ headers: { "x-forwarded-for": address } });
  /** An export as the browser downloads it (the test client would read JSON lines as one JSON). */
  const download = async (url: string) => {
    const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(panel().url + url, { headers: { cookie } });
    return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
  };

  beforeAll(async () => {
    api = await adminClient(panel());
    userApi = await registeredClient(panel(), user);
    await registeredClient(panel(), viewer);
    userId = (await userApi.get("/api/self")).body.id;
    const remote = await addRemoteNode(api, "activity-remote");
    daemon = remote.daemon;
    await createEchoServer(api, localId, { name: localId });
    await createEchoServer(api, remoteId, { name: remoteId, node: remote.nodeId });
    for (const id of [localId, remoteId]) await setServerScopes(panel(), user.email, id, userScopes);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-activity-test-"));
  });

  afterAll(async () => {
    await daemon?.destroy();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("records a sign-in and a failed one, with the address a trusted proxy names, never the password", async () => {
    const client = new PanelClient(panel().url);
    await client.prime();
    const wrong = await client.post(
      "/auth/login",
      { email: user.email, password: "not-the-password-9" },
      from("203.0.113.9"),
    );
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    const right = await client.post(
      "/auth/login",
      { email: user.email, password: user.password },
      from("203.0.113.10"),
    );
    expect(right.status, right.text).toBe(200);

    const failed = await entries(`action=auth.login.failed&user=${userId}`);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actor: user.email, userId, address: "203.0.113.9", ok: false });
    expect(failed[0].details.error).toMatch(/^Err/);
    const signedIn = (await entries(`action=auth.login&user=${userId}`)).filter(
      (e) => e.address === "203.0.113.10",
    );
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]).toMatchObject({ actorKind: "user", actor: user.username, userId, ok: true });
    expect((await client.post("/auth/logout", undefined, from("203.0.113.10"))).status).toBe(204);
    const [signedOut] = await entries(`action=auth.logout&user=${userId}`);
    expect(signedOut).toMatchObject({ actor: user.username, address: "203.0.113.10", ok: true });
    const everything = await download("/api/activity?format=jsonl");
    expect(everything.text).not.toContain("not-the-password-9");
    expect(everything.text).not.toContain(user.password);
  });

  it("keeps secret settings out of the log", async () => {
    const res = await api.put("/api/settings/panel.email.password", { value: "hunter2-mail-secret" });
    expect(res.status, res.text).toBe(204);
    const [entry] = await entries("action=settings.edit");
    expect(entry.details).toEqual({ "panel.email.password": "[redacted]" });
    expect((await download("/api/activity?format=csv")).text).not.toContain("hunter2-mail-secret");
  });

  for (const where of ["local", "remote"] as const) {
    describe(`on a server of the ${where} node`, () => {
      const id = where === "local" ? localId : remoteId;
      const address = where === "local" ? "198.51.100.1" : "198.51.100.2";

      it("records start, a console command and a file written through the API once each, by the user", async () => {
        expect(
          (await userApi.post(`/api/servers/${id}/start?wait=true`, undefined, from(address))).status,
        ).toBe(204);
        const sent = await userApi.call("POST", `/api/servers/${id}/console`, {
          raw: "say hello from the log",
          headers: { "content-type": "text/plain", "x-forwarded-for": address },
        });
        expect(sent.status, sent.text).toBe(204);
        const put = await userApi.call("PUT", `/api/servers/${id}/file/notes.txt`, {
          raw: "notes",
          headers: { "content-type": "application/octet-stream", "x-forwarded-for": address },
        });
        expect(put.status, put.text).toBe(204);

        for (const [action, subject] of [
          ["server.start", ""],
          ["server.console", ""],
          ["file.write", "/notes.txt"],
        ]) {
          const found = await entries(`server=${id}&action=${action}`);
          expect(found, action).toHaveLength(1);
          expect(found[0]).toMatchObject({
            actor: user.username,
            userId,
            address,
            serverId: id,
            subject,
            ok: true,
          });
        }
        const [command] = await entries(`server=${id}&action=server.console`);
        expect(command.details.command).toBe("say hello from the log");
      });

      it("records an SFTP upload once, by the SFTP user, from the client's address", async () => {
        fs.writeFileSync(path.join(work, "up.txt"), "uploaded");
        const port = where === "local" ? panel().sftpPort : daemon.config.sftp.port;
        const run = await runSftp(
          { port, user: `${user.email}#${id}`, password: user.password },
          ["put up.txt up.txt", "mkdir made"],
          {
            cwd: work,
          },
        );
        expect(run.code, run.stderr).toBe(0);
        const [upload] = await settled(`server=${id}&action=file.write&user=${userId}&q=up.txt`, 1);
        expect(await entries(`server=${id}&action=file.write&q=up.txt`)).toHaveLength(1);
        expect(upload).toMatchObject({
          actorKind: "sftp",
          actor: user.email,
          userId,
          address: "127.0.0.1",
          subject: "/up.txt",
          ok: true,
        });
        expect(upload.details).toMatchObject({ bytes: 8, via: "sftp" });
        const [made] = await settled(`server=${id}&action=file.mkdir&q=made`, 1);
        expect(made).toMatchObject({ actorKind: "sftp", subject: "/made" });
        // The sign-in itself, once, as the node saw it (a remote node's question to the panel is not another).
        const signIns = await settled(`server=${id}&action=auth.sftp`, 1);
        expect(signIns).toHaveLength(1);
        expect(signIns[0]).toMatchObject({ actor: user.email, userId, address: "127.0.0.1", ok: true });
        expect(await entries("action=auth.token")).toEqual([]);
      });

      it("records a task's run with the task as the actor", async () => {
        const made = await userApi.post(`/api/servers/${id}/tasks`, { name: "nightly", operations: [] });
        expect(made.status, made.text).toBe(200);
        const taskId = made.body.id;
        expect((await userApi.post(`/api/servers/${id}/tasks/${taskId}/run`)).status).toBeLessThan(300);
        const runs = await settled(`server=${id}&action=task.run&user=nightly`, 1);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({
          actorKind: "task",
          actor: "nightly",
          userId: null,
          subject: `task:${taskId}`,
          ok: true,
        });
        expect(runs[0].details).toMatchObject({ task: taskId, trigger: "manual" });
        // The user who asked for it is recorded too, as the user.
        expect(await entries(`server=${id}&action=task.run&user=${userId}`)).toHaveLength(1);
      });

      it("records a write refused for want of a scope as failed", async () => {
        const res = await userApi.post(`/api/servers/${id}/kill`, undefined, from(address));
        expect(res.status).toBe(403);
        const [refused] = await entries(`server=${id}&action=server.kill`);
        expect(refused).toMatchObject({ actor: user.username, address, ok: false });
        expect(refused.details.error).toBe("ErrMissingScope");
      });
    });
  }

  describe("who may read it", () => {
    /**
     * The status a read answers once the panel has seen a change written straight to its database
     * (a read may be answered from memory for a moment after another process's write: read-cache.ts).
     */
    const answersSoon = async (client: Client, url: string, status: number) => {
      await waitUntil(async () => (await client.get(url)).status === status, 5000, 50).catch(() => {});
      return client.get(url);
    };

    it("refuses each list without its scope", async () => {
      const anonymous = new PanelClient(panel().url);
      for (const url of ["/api/activity", `/api/servers/${localId}/activity`, "/api/self/activity"])
        expect((await anonymous.get(url)).status, url).toBe(401);
      const viewerApi = new PanelClient(panel().url);
      expect((await viewerApi.login(viewer.email, viewer.password)).status).toBe(200);
      expect((await viewerApi.get("/api/activity")).status).toBe(403);
      // Seeing a server is not seeing who did what on it.
      await setServerScopes(panel(), viewer.email, localId, ["server.view", "server.console"]);
      const refused = await answersSoon(viewerApi, `/api/servers/${localId}/activity`, 403);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("ErrMissingScope");
      await setServerScopes(panel(), viewer.email, localId, ["server.view", "server.activity.view"]);
      const seen = await answersSoon(viewerApi, `/api/servers/${localId}/activity?limit=100`, 200);
      expect(seen.status).toBe(200);
      expect(seen.body.activity.length).toBeGreaterThan(0);
      expect(seen.body.activity.every((e: Entry) => e.serverId === localId)).toBe(true);
      expect((await viewerApi.get(`/api/servers/${remoteId}/activity`)).status).toBe(403);
      // Without login, not even one's own.
      await setGlobalScopes(panel(), viewer.email, []);
      expect((await answersSoon(viewerApi, "/api/self/activity", 403)).status).toBe(403);
      await setGlobalScopes(panel(), viewer.email, ["login"]);
    });

    it("implies server.activity.view by server.admin", async () => {
      const viewerApi = new PanelClient(panel().url);
      expect((await viewerApi.login(viewer.email, viewer.password)).status).toBe(200);
      await setServerScopes(panel(), viewer.email, remoteId, ["server.view", "server.admin"]);
      expect((await answersSoon(viewerApi, `/api/servers/${remoteId}/activity`, 200)).status).toBe(200);
    });

    it("lets a client bound to a server read that server's log, not its owner's own or everyone's", async () => {
      const made = await api.post(`/api/servers/${localId}/oauth2`, {
        name: "log reader",
        scopes: ["server.activity.view", "server.console.send"],
      });
      expect(made.status, made.text).toBe(200);
      const grant = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
        form: {
          grant_type: "client_credentials",
          client_id: made.body.client_id,
          client_secret: made.body.client_secret,
        },
      });
      expect(grant.status, grant.text).toBe(200);
      const bearer = new PanelClient(panel().url);
      const token = grant.body.access_token;
      expect((await bearer.get(`/api/servers/${localId}/activity`, { bearer: token })).status).toBe(200);
      expect((await bearer.get("/api/self/activity", { bearer: token })).status).toBe(403);
      expect((await bearer.get("/api/activity", { bearer: token })).status).toBe(403);
      // What it does is recorded as the client, acting for its owner.
      const sent = await bearer.call("POST", `/api/servers/${localId}/console`, {
        raw: "list",
        bearer: token,
        headers: { "content-type": "text/plain" },
      });
      expect(sent.status, sent.text).toBe(204);
      const byClient = (await entries(`server=${localId}&action=server.console`)).filter(
        (e) => e.actorKind === "client",
      );
      expect(byClient).toHaveLength(1);
      expect(byClient[0]).toMatchObject({
        actorKind: "client",
        clientId: made.body.client_id,
        actor: "admin",
        details: { command: "list" },
      });
    });

    it("answers each user their own entries only", async () => {
      const mine = await userApi.get("/api/self/activity?limit=100");
      expect(mine.status).toBe(200);
      expect(mine.body.activity.length).toBeGreaterThan(0);
      expect(mine.body.activity.every((e: Entry) => e.userId === userId)).toBe(true);
      // A filter for someone else's entries does not widen it.
      const other = await userApi.get("/api/self/activity?user=1");
      expect(other.body.activity.every((e: Entry) => e.userId === userId)).toBe(true);
    });

    it("pages like the other lists and refuses a bad time", async () => {
      const first = await api.get("/api/activity?limit=2&page=1");
      expect(first.body.paging).toMatchObject({ page: 1, pageSize: 2 });
      expect(first.body.paging.total).toBeGreaterThan(2);
      const second = await api.get("/api/activity?limit=2&page=2");
      expect(second.body.activity[0].id).toBeLessThan(first.body.activity[1].id);
      const bad = await api.get("/api/activity?since=yesterday");
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBeTruthy();
      expect(bad.text).not.toMatch(/\bat \w+ \(/);
    });
  });

  it("names each entry's server beside its id, what a rename and a grant replaced, and a deleted server by its id", async () => {
    const id = "act0named";
    await createEchoServer(api, id, { name: "Old name" });
    expect((await api.put(`/api/servers/${id}/name/New%20name`)).status).toBe(204);
    const grant = (scopes: string[]) =>
      api.put(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { scopes });
    expect((await grant(["server.view"])).status).toBe(204);
    expect((await grant(["server.view", "server.start"])).status).toBe(204);

    const [renamed] = await entries(`server=${id}&action=server.rename`);
    expect(renamed).toMatchObject({
      serverId: id,
      serverName: "New name",
      details: { name: "New name", before: { name: "Old name" } },
    });
    const [changed, added] = await entries(`server=${id}&action=server.user.edit`);
    expect(changed.serverName).toBe("New name");
    expect(changed.details).toEqual({
      scopes: ["server.view", "server.start"],
      before: { scopes: ["server.view"] },
    });
    // New to the server: nothing before.
    expect(added.details).toEqual({ scopes: ["server.view"] });
    const [other] = await entries(`server=${localId}`);
    expect(other.serverName).toBe(localId);
    const [signIn] = await entries("action=auth.login");
    expect(signIn.serverName).toBeNull();
    expect(signIn.subjectName).toBeNull();

    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
    const gone = await entries(`server=${id}`);
    expect(gone.length).toBeGreaterThanOrEqual(4);
    for (const entry of gone) expect(entry).toMatchObject({ serverId: id, serverName: null });
  });

  it("keeps what a setting and a user's global permissions were before they changed", async () => {
    const key = "panel.settings.companyName";
    expect((await api.put(`/api/settings/${key}`, { value: "Before Ltd" })).status).toBe(204);
    expect((await api.put(`/api/settings/${key}`, { value: "After Ltd" })).status).toBe(204);
    const [setting] = await entries("action=settings.edit");
    expect(setting.details).toEqual({ [key]: "After Ltd", before: { [key]: "Before Ltd" } });

    const perms = `/api/users/${userId}/perms`;
    const held = (await api.get(perms)).body.scopes as string[];
    expect((await api.put(perms, { scopes: [...held, "nodes.view"] })).status).toBe(204);
    const [changed] = await entries("action=user.perms");
    expect(changed.details).toEqual({ scopes: [...held, "nodes.view"], before: { scopes: held } });
    // The user it was done to, by name beside the subject's id.
    expect(changed).toMatchObject({ subject: `user:${userId}`, subjectName: user.username });
    expect((await api.put(perms, { scopes: held })).status).toBe(204);
  });

  it("exports every matching entry as CSV and as JSON lines", async () => {
    const all = await api.get("/api/activity?limit=100");
    const total = all.body.paging.total;
    const jsonl = await download("/api/activity?format=jsonl");
    expect(jsonl.status).toBe(200);
    expect(jsonl.type).toMatch(/application\/x-ndjson/);
    const lines = jsonl.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Entry);
    expect(lines).toHaveLength(total);
    // The exports are the entries as stored: the server's name is the list's, for people.
    const { serverName: _name, subjectName: _subject, ...first } = all.body.activity[0] as Entry;
    expect(lines[0]).toEqual(first);
    expect(lines.every((l) => !("serverName" in l) && !("subjectName" in l))).toBe(true);

    const csv = await download("/api/activity?format=csv&action=server.console");
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/text\/csv/);
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual([
      "id",
      "time",
      "actorKind",
      "userId",
      "actor",
      "clientId",
      "address",
      "action",
      "ok",
      "serverId",
      "subject",
      "details",
    ]);
    const commands = await entries("action=server.console");
    expect(rows).toHaveLength(commands.length + 1);
    for (const [i, row] of rows.slice(1).entries()) {
      expect(row[0]).toBe(String(commands[i].id));
      expect(row[7]).toBe("server.console");
      expect(JSON.parse(row[11])).toEqual(commands[i].details);
    }
    expect(commands.filter((c) => c.details.command === "say hello from the log")).toHaveLength(2);
  });

  it("removes entries older than the retention setting in the background", async () => {
    const day = 24 * 60 * 60 * 1000;
    await withPanelDb(panel(), async (db) => {
      for (const [name, age] of [
        ["old", 40],
        ["kept", 10],
      ] as const)
        await db
          .insertInto("activity")
          .values({
            at: Date.now() - age * day,
            actor_kind: "user",
            actor_name: `retention-${name}`,
            action: "test.retention",
            ok: 1,
            address: "",
            subject: "",
            details: "{}",
          })
          .execute();
    });
    expect(await entries("action=test.retention")).toHaveLength(2);
    expect((await api.put("/api/settings/panel.activity.retentionDays", { value: "30" })).status).toBe(204);
    expect((await api.get("/api/settings/panel.activity.retentionDays")).body.value).toBe("30");
    await waitUntil(async () => (await entries("action=test.retention")).length === 1, 10_000);
    expect((await entries("action=test.retention"))[0].actor).toBe("retention-kept");
    const bad = await api.put("/api/settings/panel.activity.retentionDays", { value: "0" });
    expect(bad.status).toBe(400);
  });

  it("does not make other panels drop their caches (no write-notify trigger on PostgreSQL)", async () => {
    if (process.env.OUTPOST_TEST_DB !== "postgres") return;
    const triggers = await withPanelDb(panel(), async (db) => {
      const { rows } = await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
        WHERE g.tgname = 'outpost_notify_write' AND c.relname IN ('activity', 'users')`.execute(db);
      return rows.map((r) => r.name);
    });
    expect(triggers).toEqual(["users"]);
  });
});

/** RFC 4180, as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}
