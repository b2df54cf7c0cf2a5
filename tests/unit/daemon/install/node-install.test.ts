import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DaemonEngine } from "../../../../server/daemon/engine.ts";
import { productVersion } from "../../../../server/version.ts";
import { echoDefinition } from "../../../support/echo-template.ts";

/** The node's install action runs the executor: steps reach the server's folder and its console. */
let dir: string;
let engine: DaemonEngine;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-node-install-"));
  engine = new DaemonEngine({ dataDir: dir, version: productVersion });
});
afterEach(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a node's install", () => {
  it("runs the definition's install steps in the server's folder, output in its console", async () => {
    const id = "1a2b3c4d";
    await engine.serverOps.createServer(
      id,
      echoDefinition({
        install: [
          { type: "writefile", target: "motd.txt", text: "${motd}" },
          { type: "command", commands: ["sh -c 'echo installed-$(cat motd.txt)'"] },
        ],
      }),
    );
    await engine.serverOps.action(id, "install", true);
    expect(fs.readFileSync(path.join(dir, "servers", id, "motd.txt"), "utf8")).toBe("hello");
    const { logs } = await engine.serverOps.console(id, 0);
    const text = Buffer.from(logs, "base64").toString("utf8");
    expect(text).toContain("[DAEMON] Installing server");
    expect(text).toContain("installed-hello");
    expect(text).toContain("[DAEMON] Server installed");
  });

  it("fails the install on a failing step and says why in the console", async () => {
    const id = "5e6f7a8b";
    await engine.serverOps.createServer(
      id,
      echoDefinition({ install: [{ type: "writefile", target: "../escape.txt", text: "x" }] }),
    );
    await expect(engine.serverOps.action(id, "install", true)).rejects.toMatchObject({
      code: "ErrIllegalFileAccess",
    });
    const text = Buffer.from((await engine.serverOps.console(id, 0)).logs, "base64").toString("utf8");
    expect(text).toContain("[DAEMON] Install failed: writefile: illegal file access");
    expect(fs.existsSync(path.join(dir, "servers", "escape.txt"))).toBe(false);
    // The status says the install failed and why (the panel shows "Install failed", not
    // "not installed yet"), also after the node starts again.
    const failed = {
      running: false,
      installing: false,
      installed: false,
      installFailure: expect.stringContaining("writefile: illegal file access"),
    };
    expect(await engine.serverOps.status(id)).toEqual(failed);
    await engine.close();
    engine = new DaemonEngine({ dataDir: dir, version: productVersion });
    await engine.start();
    expect(await engine.serverOps.status(id)).toEqual(failed);

    // A definition that installs: the failure is gone with the install.
    await engine.serverOps.replaceDefinition(
      id,
      echoDefinition({ install: [{ type: "writefile", target: "motd.txt", text: "x" }] }),
    );
    await engine.serverOps.action(id, "install", true);
    expect(await engine.serverOps.status(id)).toEqual({ running: false, installing: false, installed: true });
  });
});

describe("what steps hand on", () => {
  it("gives command steps the run section's environment variables, and keeps output variables in the server's data", async () => {
    const id = "5e5e5e5e";
    const base = echoDefinition();
    await engine.serverOps.createServer(
      id,
      echoDefinition({
        install: [
          { type: "resolveforgeversion", version: "47.2.0", outputVariable: "resolvedForgeVersion" },
          { type: "command", commands: ["sh -c 'echo greeting=$GREETING forge=${resolvedForgeVersion}'"] },
        ],
        run: { ...base.run, environmentVars: { GREETING: "hi-${motd}" } },
      }),
    );
    await engine.serverOps.action(id, "install", true);
    const text = Buffer.from((await engine.serverOps.console(id, 0)).logs, "base64").toString("utf8");
    expect(text).toContain("greeting=hi-hello forge=47.2.0");
    const data = (await engine.serverOps.serverData(id, true)).data;
    expect(data.resolvedForgeVersion).toMatchObject({ value: "47.2.0", internal: true });
    // Kept on disk too: a restarted node still knows it.
    const reread = new DaemonEngine({ dataDir: dir, version: productVersion });
    await reread.start();
    expect((await reread.serverOps.definition(id)).data.resolvedForgeVersion.value).toBe("47.2.0");
  });
});

describe("a server's installed state", () => {
  it("is not installed until its install steps succeed: Start is refused, the node remembers across a restart", async () => {
    const id = "9c8d7e6f";
    await engine.serverOps.createServer(
      id,
      echoDefinition({ install: [{ type: "writefile", target: "motd.txt", text: "${motd}" }] }),
    );
    expect(await engine.serverOps.status(id)).toEqual({
      running: false,
      installing: false,
      installed: false,
    });
    await expect(engine.serverOps.action(id, "start", true)).rejects.toMatchObject({
      status: 409,
      code: "ErrServerNotInstalled",
    });

    // A node started again on the same folder still knows it was never installed.
    await engine.close();
    engine = new DaemonEngine({ dataDir: dir, version: productVersion });
    await engine.start();
    expect((await engine.serverOps.status(id)).installed).toBe(false);

    await engine.serverOps.action(id, "install", true);
    expect((await engine.serverOps.status(id)).installed).toBe(true);
    await engine.serverOps.action(id, "start", true);
    expect((await engine.serverOps.status(id)).running).toBe(true);
    await engine.serverOps.action(id, "stop", true);

    await engine.close();
    engine = new DaemonEngine({ dataDir: dir, version: productVersion });
    await engine.start();
    expect((await engine.serverOps.status(id)).installed).toBe(true);
  });

  it("needs no install when the definition has no install steps", async () => {
    const id = "0f1e2d3c";
    await engine.serverOps.createServer(id, echoDefinition());
    expect((await engine.serverOps.status(id)).installed).toBe(true);
  });
});
