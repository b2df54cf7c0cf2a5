import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DaemonEngine } from "../../../server/daemon/engine.ts";
import { CgroupV2Driver, SwapGuard } from "../../../server/daemon/runtime/cgroups/index.ts";
import { productVersion } from "../../../server/version.ts";
import { echoDefinition } from "../../support/echo-template.ts";

// A server's start on a node whose kernel refuses the swap limit, on a host with swap: refused with
// the API's error, and its console says why (the group's folder in a stand-in tree lies so deep that
// the swap file's path passes PATH_MAX, as in cgroups.test.ts; the host's swap from a meminfo file).
let dir: string;
let engine: DaemonEngine;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-swap-"));
  engine = new DaemonEngine({ dataDir: path.join(dir, "node"), version: productVersion });
});
afterEach(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder below `dir` whose path is `length` characters long. */
function folderOfLength(length: number): string {
  let at = dir;
  while (at.length < length) {
    const room = length - at.length - 1;
    at = path.join(at, "d".repeat(room > 255 ? Math.min(200, room - 2) : room));
  }
  fs.mkdirSync(at, { recursive: true });
  return at;
}

/** The node's cgroups: a v2 stand-in whose swap file the kernel "refuses", on a host with this much swap. */
function refusingSwap(swapKb: number, allowUnlimited = false): string[] {
  const meminfo = path.join(dir, "meminfo");
  fs.writeFileSync(meminfo, `MemTotal: 24576000 kB\nSwapTotal: ${swapKb} kB\n`);
  const warnings: string[] = [];
  const guard = new SwapGuard({ allowUnlimited, meminfo }, { warn: (m) => warnings.push(m), info: () => {} });
  // "<parent>/<prefix>-<id>" is 4082 long: memory.max fits in PATH_MAX, memory.swap.max does not.
  const name = "o-1a2b3c4d";
  engine.servers.host.cgroups = {
    driver: new CgroupV2Driver(folderOfLength(4081 - name.length), guard),
    prefix: "o",
  };
  return warnings;
}

async function consoleText(id: string): Promise<string> {
  return Buffer.from((await engine.serverOps.console(id, 0)).logs, "base64").toString("utf8");
}

describe("a server whose swap cannot be limited", () => {
  const id = "1a2b3c4d";
  beforeEach(async () => {
    await engine.serverOps.createServer(id, echoDefinition({ limits: { memoryMiB: 64 } }));
    await engine.serverOps.action(id, "install", true);
  });

  it("is refused on a host with swap, with a 409 that says how to fix it, also in its console", async () => {
    refusingSwap(2_097_148);
    await expect(engine.serverOps.action(id, "start", true)).rejects.toMatchObject({
      status: 409,
      code: "ErrSwapNotLimited",
    });
    const text = await consoleText(id);
    expect(text).toMatch(/\[DAEMON\] Could not apply the server's limits: .*memory\.swap\.max.*ENAMETOOLONG/);
    expect(text).toContain("OUTPOST_ALLOW_UNLIMITED_SWAP=1");
    expect(text).not.toContain("ready hello");
    expect((await engine.serverOps.status(id)).running).toBe(false);
  });

  it("starts on a host with swap when the administrator opted in, warned once", async () => {
    const warnings = refusingSwap(2_097_148, true);
    await engine.serverOps.action(id, "start", true);
    expect((await engine.serverOps.status(id)).running).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});
