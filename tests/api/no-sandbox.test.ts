import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, hideBubblewrap } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

/** A server that says who runs it and what it can reach, then leaves. */
const probeDefinition = (database: string) =>
  echoDefinition({
    install: [{ type: "command", commands: ["sh -c 'id -u > installed-by'"] }],
    run: {
      command: `sh -c 'echo "uid=$(id -u)"; cat ${database} >/dev/null && echo LEAK-database || echo refused-database; env | grep -q "^OUTPOST_" && echo LEAK-environment || echo clean-environment'`,
      stop: "stop",
    },
  });

/**
 * A real node on a host where bubblewrap cannot run (its program hidden in a
 * private mount namespace, see hideBubblewrap): host servers are refused,
 * unless the administrator opts in, and then they still never run as root.
 */
describe.runIf(process.getuid?.() === 0)("a node without a sandbox", () => {
  const panel = usePanel();
  let api: PanelClient;
  let refusing: { nodeId: number; daemon: DaemonProcess };
  let allowing: { nodeId: number; daemon: DaemonProcess };

  beforeAll(async () => {
    api = await adminClient(panel());
    refusing = await addRemoteNode(api, "no-bwrap", {}, hideBubblewrap());
    allowing = await addRemoteNode(
      api,
      "no-bwrap-allowed",
      { OUTPOST_UNSANDBOXED: "allow" },
      hideBubblewrap(),
    );
  });
  afterAll(async () => {
    await refusing?.daemon.destroy();
    await allowing?.daemon.destroy();
  });

  it("says at start-up, in one line, that host servers are refused and how to fix it", async () => {
    const line = refusing.daemon
      .logs()
      .split("\n")
      .find((l) => l.includes("host servers refused"));
    expect(line).toBeDefined();
    expect(line).toContain("bubblewrap (bwrap) is not installed");
    expect(line).toContain("apt-get install bubblewrap");
    expect(line).toContain("OUTPOST_UNSANDBOXED=allow");
    const features = await api.get(`/api/nodes/${refusing.nodeId}/features`);
    expect(features.status).toBe(200);
    expect(features.body.features).not.toContain("sandbox");
    expect(features.body.features).not.toContain("unsandboxed");
    expect(features.body.sandboxReason).toBe("bubblewrap (bwrap) is not installed");
  });

  it("refuses to start or install a host server, through the remote node, with a code that says why", async () => {
    const id = "6a000001";
    const database = path.join(panel().dataDir, "outpost.db");
    const created = await api.put(`/api/servers/${id}`, {
      ...probeDefinition(database),
      node: refusing.nodeId,
    });
    expect(created.status, created.text).toBe(200);
    for (const action of ["install", "install?wait", "start"]) {
      const answer = await api.post(`/api/servers/${id}/${action}`);
      expect(answer.status, `${action}: ${answer.text}`).toBe(409);
      expect(answer.body.error.code).toBe("ErrSandboxUnavailable");
      expect(answer.body.error.msg).toContain("apt-get install bubblewrap");
      expect(answer.body.error.metadata).toEqual({ reason: "bubblewrap (bwrap) is not installed" });
    }
    const text = await consoleText(api, id);
    expect(text).toContain(
      "Servers cannot run on this node: it has no sandbox (bubblewrap (bwrap) is not installed)",
    );
    expect(text).not.toContain("uid=");
    expect(fs.existsSync(path.join(refusing.daemon.config.dataDir, "servers", id, "installed-by"))).toBe(
      false,
    );
  });

  it("runs host servers unconfined when the administrator allows it, as the server's own uid, never root", async () => {
    const id = "6a000002";
    const database = path.join(panel().dataDir, "outpost.db");
    const created = await api.put(`/api/servers/${id}`, {
      ...probeDefinition(database),
      node: allowing.nodeId,
    });
    expect(created.status, created.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(
      async () => /clean-environment|LEAK-environment/.test(await consoleText(api, id)),
      20_000,
      100,
    );
    const text = await consoleText(api, id);

    const folder = path.join(allowing.daemon.config.dataDir, "servers", id);
    const owner = fs.statSync(folder).uid;
    expect(owner).toBeGreaterThanOrEqual(600_000);
    expect(Number(/uid=(\d+)/.exec(text)?.[1])).toBe(owner);
    // The install command ran as that uid too, and wrote as it.
    expect(fs.readFileSync(path.join(folder, "installed-by"), "utf8").trim()).toBe(String(owner));
    expect(fs.statSync(path.join(folder, "installed-by")).uid).toBe(owner);
    expect(text).toContain("refused-database");
    // Not the daemon's environment (it holds OUTPOST_UNSANDBOXED itself).
    expect(text).toContain("clean-environment");

    const line = allowing.daemon
      .logs()
      .split("\n")
      .find((l) => l.includes("host servers run WITHOUT a sandbox"));
    expect(line).toContain("OUTPOST_UNSANDBOXED=allow");
    const features = await api.get(`/api/nodes/${allowing.nodeId}/features`);
    expect(features.body.features).toContain("unsandboxed");
    expect(features.body.features).not.toContain("sandbox");
  });
});
