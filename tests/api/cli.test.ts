import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PanelClient } from "../support/http-client.ts";
import { usePanel } from "../support/test-panel.ts";

const bin = path.resolve(import.meta.dirname, "../../bin/outpost.mjs");

describe("the outpost command against the panel's database", () => {
  const panel = usePanel();
  const outpost = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      env: { ...process.env, OUTPOST_DATA_DIR: panel().dataDir, DATABASE_URL: panel().databaseUrl ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });

  it("adds an administrator and a plain user who can then sign in with their scopes", async () => {
    const added = outpost(
      "user",
      "add",
      "--email",
      "Cli.Admin@Example.com",
      "--username",
      "cliadmin",
      "--password",
      "cli-pass-1",
      "--admin",
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain("created administrator cliadmin <cli.admin@example.com>");
    const plain = outpost(
      "user",
      "add",
      "--email",
      "cli.user@example.com",
      "--username",
      "cliuser",
      "--password",
      "cli-pass-2",
    );
    expect(plain.status, plain.stderr).toBe(0);

    const adminLogin = await new PanelClient(panel().url).login("cli.admin@example.com", "cli-pass-1");
    expect(adminLogin.body).toEqual({ scopes: ["admin"] });
    const userLogin = await new PanelClient(panel().url).login("cli.user@example.com", "cli-pass-2");
    expect(userLogin.body.scopes).toEqual(["login", "self.edit", "self.clients"]);
  });

  it("refuses bad input with the rule it broke, and without a password or a terminal", () => {
    const short = outpost(
      "user",
      "add",
      "--email",
      "x@example.com",
      "--username",
      "abc",
      "--password",
      "long-enough-1",
    );
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("ErrFieldLength");
    const taken = outpost(
      "user",
      "add",
      "--email",
      "cli.user@example.com",
      "--username",
      "another1",
      "--password",
      "long-enough-1",
    );
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain("ErrUserExists");
    const noPassword = outpost("user", "add", "--email", "y@example.com", "--username", "someone1");
    expect(noPassword.status).toBe(1);
    expect(noPassword.stderr).toContain("pass --password");
    expect(outpost("frobnicate").status).toBe(1);
  });

  it("changes a password and ends that user's sessions", async () => {
    const client = new PanelClient(panel().url);
    await client.login("cli.user@example.com", "cli-pass-2");
    expect((await client.get("/api/self")).status).toBe(200);
    const changed = outpost(
      "user",
      "passwd",
      "--email",
      "cli.user@example.com",
      "--password",
      "cli-pass-new",
    );
    expect(changed.status, changed.stderr).toBe(0);
    expect((await client.get("/api/self")).status).toBe(401);
    expect((await new PanelClient(panel().url).login("cli.user@example.com", "cli-pass-new")).status).toBe(
      200,
    );
    expect(
      outpost("user", "passwd", "--email", "nobody@example.com", "--password", "whatever-1").status,
    ).toBe(1);
  });

  it("reports an up-to-date database on migrate", () => {
    const migrated = outpost("migrate");
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain("database is up to date");
  });
});

describe("a panel without a local node", () => {
  const panel = usePanel({ env: { OUTPOST_LOCAL_NODE: "false" } });

  it("lists no node 0 and refuses servers on it", async () => {
    const api = new PanelClient(panel().url);
    await api.login("admin@example.com", "admin-password-1");
    expect((await api.get("/api/nodes")).body).toEqual([]);
    expect((await api.get("/api/nodes/0")).status).toBe(404);
    const created = await api.put("/api/servers/0a0a0a0a", {
      type: "x",
      run: { command: "true" },
      environment: { type: "host" },
    });
    expect(created.body.error.code).toBe("ErrNodeInvalid");
  });
});
