import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { rawRequest, upload } from "../support/file-requests.ts";
import { PanelClient } from "../support/http-client.ts";
import { stopChild } from "../support/panel-process.ts";
import { waitUntil } from "../support/poll.ts";
import { loopbackNode } from "../support/remote-node.ts";
import { S3StandIn } from "../support/s3-stand-in.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** `npm run build` makes the bundle (npm test runs it first); a lone run of this file makes it here. */
function ensureBundle(): void {
  if (fs.existsSync(path.join(repoRoot, "dist-daemon", "outpost-daemon.mjs"))) return;
  execFileSync(process.execPath, [path.join(repoRoot, "scripts", "build-server.mjs")], { stdio: "pipe" });
}

describe("a node run from the daemon bundle alone, fetched from the panel", () => {
  const panel = usePanel();
  let api: PanelClient;
  let host: string;
  let daemon: ChildProcess | undefined;
  let output = "";

  beforeAll(async () => {
    ensureBundle();
    api = await adminClient(panel());
    // The node's "host": a folder outside the repository, with no node_modules above it.
    host = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bundle-host-"));
  });
  afterAll(async () => {
    if (daemon) await stopChild(daemon);
    fs.rmSync(host, { recursive: true, force: true });
  });

  it("is given only to a caller that shows a node's secret", async () => {
    const anonymous = new PanelClient(panel().url);
    expectError(await anonymous.get("/daemon/bundle"), 401, "ErrTokenInvalid");
    expectError(
      await anonymous.call("GET", "/daemon/bundle", { bearer: "0".repeat(64) }),
      401,
      "ErrTokenInvalid",
    );
    // A signed-in administrator's cookie is not a node's secret either.
    expect((await api.get("/daemon/bundle")).status).toBe(401);
  });

  it("starts with nothing but Node.js, becomes reachable and runs a server", async () => {
    const node = await api.post("/api/nodes", await loopbackNode("bundled"));
    expect(node.status, node.text).toBe(200);
    const { config } = (await api.get(`/api/nodes/${node.body.id}/deployment`)).body;

    const bundle = await fetch(`${panel().url}/daemon/bundle`, {
      headers: { authorization: `Bearer ${config.secret}` },
    });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-disposition")).toContain("outpost-daemon.mjs");
    fs.writeFileSync(path.join(host, "outpost-daemon.mjs"), Buffer.from(await bundle.arrayBuffer()));
    fs.writeFileSync(
      path.join(host, "node.json"),
      JSON.stringify({
        ...config,
        listen: { ...config.listen, host: "127.0.0.1" },
        sftp: { ...config.sftp, host: "127.0.0.1" },
        dataDir: path.join(host, "data"),
      }),
    );
    expect(fs.existsSync(path.join(host, "node_modules"))).toBe(false);

    daemon = spawn(process.execPath, ["outpost-daemon.mjs", "--config", "node.json"], {
      cwd: host,
      stdio: ["ignore", "pipe", "pipe"],
      // Nothing of the checkout: no NODE_PATH, no loader.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: host, OUTPOST_LOG_FORMAT: "json" },
    });
    daemon.stdout?.on("data", (d) => (output += d));
    daemon.stderr?.on("data", (d) => (output += d));
    await waitUntil(async () => output.includes(`Outpost daemon for node ${node.body.id}`), 30_000, 100);
    await waitUntil(
      async () => (await api.get(`/api/nodes/${node.body.id}`)).body.reachable === true,
      15_000,
    );

    const id = "b0d1e000";
    // The run command is chosen by CEL conditions, whose library the bundle also keeps
    // packed apart until the first one is evaluated.
    const echo = echoDefinition();
    const created = await api.put(`/api/servers/${id}`, {
      ...echo,
      run: {
        ...echo.run,
        command: [
          { if: "motd == 'hello' && file_exists('no-such-file')", command: "sh -c 'echo wrong'" },
          { if: "motd == 'hello' && port > 1000 && !file_exists('no-such-file')", command: echo.run.command },
          { command: "sh -c 'echo fallback'" },
        ],
      },
      name: "bundled",
      node: node.body.id,
    });
    expect(created.status, created.text).toBe(200);
    const socket = await openServerSocket(api, id);
    expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
    await waitUntil(async () => /ready hello/.test(socket.consoleText()), 10_000, 100);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await waitUntil(async () => /bye/.test(socket.consoleText()), 10_000, 100);
    socket.close();

    // Archives use packages the bundle keeps packed apart until first use (scripts/build-server.mjs):
    // they must load on a host that has nothing but the bundle.
    const base = `/api/servers/${id}`;
    expect((await upload(api, `${base}/file/pack/one.txt`, "one")).status).toBe(204);
    for (const name of ["out.zip", "out.tar.gz"]) {
      const made = await api.post(`${base}/archive/pack/${name}`, ["pack/one.txt"]);
      expect(made.status, `${name}: ${made.text}`).toBe(204);
      const into = `from-${name.replaceAll(".", "-")}`;
      const extracted = await api.post(`${base}/extract/pack/${name}?destination=${into}`);
      expect(extracted.status, `${name}: ${extracted.text}`).toBe(204);
      expect((await rawRequest(api, "GET", `${base}/file/${into}/one.txt`)).text).toBe("one");
    }

    // So does the AWS SDK of a backup target (s3rver on 127.0.0.1 stands in for S3).
    const s3 = await S3StandIn.start();
    try {
      const target = await api.put(`/api/nodes/${node.body.id}`, { backupTarget: s3.target("bundle/") });
      expect(target.status, target.text).toBe(204);
      expect((await api.post(`${base}/backup/create?name=to-s3`)).status).toBe(204);
      let backup: { id: number; state: string; size: number; error?: string } | undefined;
      await waitUntil(async () => {
        [backup] = (await api.get(`${base}/backup`)).body;
        return backup?.state !== "creating";
      }, 30_000);
      expect(backup?.state, backup?.error).toBe("ready");
      expect(await s3.keysUnder("bundle/")).toHaveLength(1);
      expect((await api.delete(`${base}/backup/${backup?.id}`)).status).toBe(204);
      expect(await s3.keysUnder("bundle/")).toEqual([]);
    } finally {
      await s3.destroy();
    }
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  });
});
