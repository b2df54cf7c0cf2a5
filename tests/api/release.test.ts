import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newest } from "../../bin/newest-mtime.mjs";
import { freePort } from "../support/free-port.ts";
import { PanelClient } from "../support/http-client.ts";
import { stopChild } from "../support/panel-process.ts";
import { waitForLine } from "../support/poll.ts";

const root = path.resolve(import.meta.dirname, "../..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/**
 * Issue 42: `npm run release` makes one tarball that runs with Node alone. It is made from the
 * build `npm test` made before this suite (scripts/test.sh), unpacked into an empty folder with
 * no node_modules around it, and started as an operator would: `outpost-<version>/bin/outpost serve`.
 */
describe("the release tarball", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-release-"));
  const unpacked = path.join(work, "unpacked");
  const home = path.join(unpacked, `outpost-${version}`);
  let panel: ChildProcess | undefined;
  let output = "";
  let url = "";

  beforeAll(async () => {
    const built = path.join(root, "dist-server", "outpost.mjs");
    if (!fs.existsSync(built) || newest(path.join(root, "server")) > fs.statSync(built).mtimeMs)
      throw new Error("the server's build is missing or older than its sources: run `npm run build` first");
    const made = spawnSync(
      process.execPath,
      [path.join(root, "scripts/release.mjs"), "--no-build", "--out", work],
      {
        encoding: "utf8",
        timeout: 300_000,
      },
    );
    expect(made.status, made.stderr).toBe(0);
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", path.join(work, `outpost-${version}-linux-x64.tar.gz`), "-C", unpacked]);
  }, 320_000);
  afterAll(async () => {
    if (panel) await stopChild(panel);
    fs.rmSync(work, { recursive: true, force: true });
    // Some 12,000 files, on a disk the other suites keep busy.
  }, 120_000);

  it("unpacks into outpost-<version>/ with no sources and no build tools", () => {
    expect(fs.readdirSync(unpacked)).toEqual([`outpost-${version}`]);
    for (const part of [
      "bin/outpost",
      "dist/index.html",
      "dist-server/outpost.mjs",
      "dist-daemon/outpost-daemon.mjs",
    ])
      expect(fs.existsSync(path.join(home, part)), part).toBe(true);
    for (const part of ["install.sh", "outpost.service", "LICENSE", "CHANGELOG.md"])
      expect(fs.existsSync(path.join(home, part)), part).toBe(true);
    for (const absent of [
      "server",
      "src",
      "tests",
      "node_modules/tsx",
      "node_modules/vite",
      "node_modules/typescript",
    ])
      expect(fs.existsSync(path.join(home, absent)), absent).toBe(false);
    const run = spawnSync(path.join(home, "bin/outpost"), ["--version"], { encoding: "utf8", cwd: work });
    expect(run.stdout.trim()).toBe(`outpost ${version}`);
  });

  it("starts with bin/outpost serve, answers and serves the sign-in page", async () => {
    const port = await freePort();
    panel = spawn(path.join(home, "bin/outpost"), ["serve"], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        OUTPOST_HOST: "127.0.0.1",
        OUTPOST_PORT: String(port),
        OUTPOST_SFTP_PORT: String(await freePort()),
        OUTPOST_DATA_DIR: path.join(work, "data"),
        OUTPOST_ADMIN_EMAIL: "admin@example.com",
        OUTPOST_ADMIN_USERNAME: "admin",
        OUTPOST_ADMIN_PASSWORD: "release-pass-1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    panel.stdout?.on("data", (d) => (output += d));
    panel.stderr?.on("data", (d) => (output += d));
    await waitForLine("released panel", panel, () => output, "Outpost panel on", 60_000);
    url = `http://127.0.0.1:${port}`;

    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`${url}/auth/login`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeTruthy();
    expect((await fetch(new URL(script ?? "", url))).status).toBe(200);
    const signedIn = await new PanelClient(url).login("admin@example.com", "release-pass-1");
    expect(signedIn.body).toEqual({ scopes: ["admin"] });
  }, 90_000);
});
