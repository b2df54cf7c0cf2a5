import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { newOtpSecret } from "../../server/panel/otp.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { enableOtp, panelSecretBox, storedSetting, withPanelDb } from "../support/panel-db.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitForExit } from "../support/poll.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";
const mode = (p: string) => fs.statSync(p).mode & 0o777;
const node = {
  name: "sealed-node",
  publicHost: "n.example.com",
  publicPort: 8443,
  privateHost: "10.0.0.9",
  privatePort: 8080,
  sftpPort: 5657,
};

/** Every stored byte of the panel's database: the SQLite file and its WAL, or every row of PostgreSQL's tables as text. */
async function storedBytes(panel: PanelProcess): Promise<string> {
  if (onSqlite) {
    const file = path.join(panel.dataDir, "outpost.db");
    return [file, `${file}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("");
  }
  return withPanelDb(panel, async (db) => {
    const tables = ["users", "nodes", "settings", "sessions", "oauth_clients"] as const;
    const rows = await Promise.all(tables.map((t) => db.selectFrom(t).selectAll().execute()));
    return JSON.stringify(rows);
  });
}

describe("secrets at rest", () => {
  const panel = usePanel();
  const smtpPassword = "smtp-pass-Zq81xW";

  it("keeps the data folder 0700 and the database, its key and the server definitions 0600", async () => {
    const api = await adminClient(panel());
    const created = await api.put("/api/servers/5ea1ed01", { ...echoDefinition(), node: 0 });
    expect(created.status, created.text).toBe(200);
    const dir = panel().dataDir;
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "secret.key"))).toBe(0o600);
    expect(mode(path.join(dir, "node"))).toBe(0o700);
    expect(mode(path.join(dir, "node", "servers", "5ea1ed01.json"))).toBe(0o600);
    expect(mode(path.join(dir, "node", "sftp_host_ed25519_key"))).toBe(0o600);
    if (onSqlite) {
      for (const f of ["outpost.db", "outpost.db-wal", "outpost.db-shm"])
        expect(mode(path.join(dir, f)), f).toBe(0o600);
    }
  });

  it('never answers the SMTP password: "" keeps it, null clears it, a string sets it', async () => {
    const api = await adminClient(panel());
    const read = async () => (await api.get("/api/settings/panel.email.password")).body;
    expect(await read()).toEqual({ value: "", isSet: false });
    expect((await api.post("/api/settings", { "panel.email.password": smtpPassword })).status).toBe(204);
    expect(await read()).toEqual({ value: "", isSet: true });
    // A client saving back the form it was shown sends "": the password stays.
    expect(
      (await api.post("/api/settings", { "panel.email.password": "", "panel.email.from": "a@b.cd" })).status,
    ).toBe(204);
    expect(await read()).toEqual({ value: "", isSet: true });
    const stored = String(await storedSetting(panel(), "panel.email.password"));
    expect(panelSecretBox(panel()).open(stored)).toBe(smtpPassword);
    expect((await api.put("/api/settings/panel.email.key", { value: "key-1" })).status).toBe(204);
    expect((await api.get("/api/settings/panel.email.key")).body).toEqual({ value: "", isSet: true });
    expect((await api.post("/api/settings", { "panel.email.key": null })).status).toBe(204);
    expect((await api.get("/api/settings/panel.email.key")).body).toEqual({ value: "", isSet: false });
    // null is no value for an ordinary setting, and ordinary settings still answer their value.
    expect((await api.post("/api/settings", { "panel.email.from": null })).status).toBe(400);
    expect((await api.get("/api/settings/panel.email.from")).body).toEqual({ value: "a@b.cd" });
    expect((await api.post("/api/settings", { "panel.email.password": smtpPassword })).status).toBe(204);
  });

  it("stores no SMTP password, OTP secret or node secret in plain text", async () => {
    const api = await adminClient(panel());
    const created = await api.post("/api/nodes/", node);
    expect(created.status, created.text).toBe(200);
    const deployment = await api.get(`/api/nodes/${created.body.id}/deployment`);
    const nodeSecret = deployment.body.clientSecret as string;
    expect(nodeSecret).toMatch(/^[0-9a-f]{64}$/);
    const user = newUser("sealed-otp");
    await registeredClient(panel(), user);
    const otpSecret = await enableOtp(panel(), user.email);
    expect((await api.post("/api/settings", { "panel.email.password": smtpPassword })).status).toBe(204);
    const bytes = await storedBytes(panel());
    expect(bytes).toContain("sealed:v1:");
    for (const secret of [smtpPassword, otpSecret, nodeSecret]) expect(bytes).not.toContain(secret);
  });
});

describe("a data folder from before secrets were sealed", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-unsealed-"));
  const started: PanelProcess[] = [];
  afterAll(async () => {
    for (const p of started.reverse()) await p.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is sealed and narrowed at start, and its secrets keep working", async () => {
    const postgresUrl = onSqlite ? undefined : inject("postgresUrl");
    const first = await startPanel({ dataDir, postgresUrl });
    started.push(first);
    const user = newUser("old-otp");
    await registeredClient(first, user);
    // Rows as an older version wrote them: every secret in plain text.
    const otpSecret = newOtpSecret();
    const nodeSecret = "a".repeat(64);
    await withPanelDb(first, async (db) => {
      await db
        .updateTable("users")
        .set({ otp_secret: otpSecret, otp_active: 1 })
        .where("email", "=", user.email)
        .execute();
      await db
        .insertInto("nodes")
        .values({
          name: "old-node",
          public_host: "o.example.com",
          public_port: 1,
          private_host: "10.0.0.1",
          private_port: 2,
          sftp_port: 3,
          secret: nodeSecret,
          created_at: Date.now(),
        })
        .execute();
      await db
        .insertInto("settings")
        .values({ key: "panel.email.password", value: JSON.stringify(smtpPasswordOld) })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(smtpPasswordOld) }))
        .execute();
    });
    process.kill(first.pid, "SIGTERM");
    await waitForExit(first.pid);
    fs.chmodSync(dataDir, 0o755);
    if (onSqlite) fs.chmodSync(path.join(dataDir, "outpost.db"), 0o644);

    const second = await startPanel({ dataDir, env: { DATABASE_URL: first.databaseUrl ?? "" } });
    started.push(second);
    // The same database as before the restart (startPanel names it only when it made it).
    const restarted = { ...second, databaseUrl: first.databaseUrl };
    expect(mode(dataDir)).toBe(0o700);
    if (onSqlite) expect(mode(path.join(dataDir, "outpost.db"))).toBe(0o600);
    const bytes = await storedBytes(restarted);
    for (const secret of [smtpPasswordOld, otpSecret, nodeSecret]) expect(bytes).not.toContain(secret);
    const api = await adminClient(second);
    const nodes = (await api.get("/api/nodes")).body as { id: number; name: string }[];
    const old = nodes.find((n) => n.name === "old-node")!;
    expect((await api.get(`/api/nodes/${old.id}/deployment`)).body.clientSecret).toBe(nodeSecret);
    expect(panelSecretBox(second).open(String(await storedSetting(restarted, "panel.email.password")))).toBe(
      smtpPasswordOld,
    );
    expect((await api.get("/api/settings/panel.email.password")).body).toEqual({ value: "", isSet: true });
  }, 120_000); // two panels started and stopped in turn: slow on a loaded machine
});

const smtpPasswordOld = "old-smtp-pass-Kq93";
