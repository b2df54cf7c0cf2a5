import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeAudience, signNodeToken } from "../../server/contract/node/node-token.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { freePort } from "../support/free-port.ts";
import { waitUntil } from "../support/poll.ts";

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

describe("the daemon accepts only calls its panel signed for it", () => {
  const secret = randomBytes(32).toString("hex");
  let daemon: DaemonProcess;
  beforeAll(async () => {
    daemon = await startDaemon({
      nodeId: 3,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
    });
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  const features = (token?: string) =>
    fetch(`${daemon.baseUrl}/daemon/features`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it("keeps its config file (it holds the node's secret) 0600 and its data folder 0700", () => {
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    expect(mode(daemon.configFile)).toBe(0o600);
    expect(mode(daemon.config.dataDir)).toBe(0o700);
    expect(mode(path.join(daemon.config.dataDir, "sftp_host_ed25519_key"))).toBe(0o600);
  });

  it("answers its health check without a token", async () => {
    const res = await fetch(`${daemon.baseUrl}/daemon`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "daemon is running" });
  });

  it("accepts a fresh token for this node", async () => {
    expect((await features(signNodeToken(3, secret))).status).toBe(200);
  });

  it.each([
    ["no token", undefined],
    ["a malformed token", "not.a.token"],
    ["a token for another node", signNodeToken(4, secret)],
    ["a token signed with another secret", signNodeToken(3, randomBytes(32).toString("hex"))],
    ["an expired token", signNodeToken(3, secret, Date.now() - 10 * 60_000)],
    ["a token from the future", signNodeToken(3, secret, Date.now() + 10 * 60_000)],
  ])("refuses %s with 401", async (_what, token) => {
    const res = await features(token);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: "ErrTokenInvalid", msg: "a valid panel token is required" },
    });
  });

  it("refuses a token whose lifetime was stretched, even when signed", async () => {
    const header = b64({ alg: "HS256", typ: "JWT" });
    const iat = Math.floor(Date.now() / 1000);
    const payload = b64({ aud: nodeAudience(3), iat, exp: iat + 86_400 });
    const { createHmac } = await import("node:crypto");
    const sig = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
    expect((await features(`${header}.${payload}.${sig}`)).status).toBe(401);
  });

  it("refuses deeply nested JSON with 400, not a 500 (issue 13 #7)", async () => {
    const res = await fetch(`${daemon.baseUrl}/daemon/server/00000001`, {
      method: "PUT",
      headers: { authorization: `Bearer ${signNodeToken(3, secret)}`, "content-type": "application/json" },
      body: `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("ErrInvalidJson");
  });

  it("logs refusals by reason and never the token or the secret", async () => {
    const token = signNodeToken(4, secret);
    await features(token);
    await waitUntil(
      async () => daemon.logs().includes("refused a call without a valid panel token"),
      10_000,
      20,
    );
    expect(daemon.logs()).not.toContain(token);
    expect(daemon.logs()).not.toContain(secret);
  });
});
