import { spawnSync } from "node:child_process";
import net from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { rawRequest } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

const root = process.getuid?.() === 0;

/** Runs the daemon's command line as nobody, its folder (the config's) given to nobody first. */
const asNobody = (): string[] => [
  "/bin/sh",
  "-c",
  'chown -R 65534:65534 "$(dirname "$5")" && exec setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"',
  "sh",
];

/** What the game runs: it listens on its own port, then tries its own port and the host's services. */
const probe = `
const net = require("node:net");
const [own, service, panel, outer] = process.argv.slice(2);
const tryConnect = (label, port, host) => new Promise((done) => {
  const socket = net.connect(Number(port), host);
  socket.setTimeout(3000, () => { console.log(label + " TIMEOUT"); socket.destroy(); done(); });
  socket.once("connect", () => { console.log(label + " REACHED"); socket.destroy(); done(); });
  socket.once("error", (e) => { console.log(label + " REFUSED " + e.code); done(); });
});
net.createServer((s) => { s.on("error", () => {}); s.end("own-port-answer\\n"); }).listen(Number(own), "0.0.0.0", async () => {
  await tryConnect("own-port", own, "127.0.0.1");
  await tryConnect("host-service", service, "127.0.0.1");
  await tryConnect("panel-port", panel, "127.0.0.1");
  if (outer) await tryConnect("host-address", service, outer);
  console.log("probe-done");
});
process.stdin.on("data", (d) => { if (String(d).includes("stop")) process.exit(0); });
`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An address of this host that is not loopback (its traffic still goes through `lo`). */
const hostAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

/**
 * Issue 35, P10: a game process shared the host's network, so it reached the panel's own HTTP port
 * and every loopback service of the host. A root node now closes that with a rule of its own;
 * the server's own ports stay reachable, and players (here: this test) still reach the server.
 */
describe("the host's loopback and a game process", () => {
  const panel = usePanel();
  let api: PanelClient;
  let service: net.Server;
  let servicePort = 0;
  let accepted = 0;

  beforeAll(async () => {
    api = await adminClient(panel());
    service = net.createServer((socket) => {
      accepted++;
      socket.end("service-answer\n");
    });
    await new Promise<void>((resolve) => service.listen(0, "0.0.0.0", resolve));
    servicePort = (service.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => service?.close(resolve));
  });

  it.runIf(root)("refuses a server's connections to the host's services, not to its own port", async () => {
    const id = "100b0001";
    const own = await freePort();
    const panelPort = new URL(panel().url).port;
    const definition = echoDefinition({
      data: { port: { type: "integer", value: own, display: "Port" } },
      groups: [],
      run: {
        command: `node probe.js \${port} ${servicePort} ${panelPort} ${hostAddress ?? ""}`,
        stop: "stop",
      },
      requirements: { os: "linux", binaries: ["node"] },
    });
    expect((await api.put(`/api/servers/${id}`, definition)).status).toBe(200);
    expect((await rawRequest(api, "PUT", `/api/servers/${id}/file/probe.js`, { body: probe })).status).toBe(
      204,
    );
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("probe-done"), 20_000, 100);
    const text = await consoleText(api, id);
    expect(text).toContain("own-port REACHED");
    expect(text).toMatch(/host-service REFUSED ECONNREFUSED/);
    expect(text).toMatch(/panel-port REFUSED ECONNREFUSED/);
    if (hostAddress) expect(text).toMatch(/host-address REFUSED ECONNREFUSED/);
    expect(accepted).toBe(0);
    // And the node says so at start-up.
    expect(panel().logs()).toMatch(/host loopback closed to servers but for their own ports \(iptables/);

    // A player on this host still reaches the game: replies to connections made from outside pass.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(own, "127.0.0.1");
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(answer).toBe("own-port-answer\n");
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await api.delete(`/api/servers/${id}`);
  });

  it.runIf(root)("matches only what leaves through lo, so the outside stays reachable", () => {
    const rules = spawnSync("iptables", ["-S", "OUTPUT"]).stdout.toString();
    expect(rules).toMatch(/-A OUTPUT -o lo -m owner --uid-owner \d+-\d+ -j OUTPOST-LO-\d+/);
    expect(rules).not.toMatch(/-A OUTPUT (?!-o lo).*OUTPOST-LO/);
  });

  it("a node that is not root refuses host servers and says why, on its start line and in its features", async () => {
    const daemonPort = await freePort();
    const node = await api.post("/api/nodes", {
      name: "not-root-node",
      publicHost: "127.0.0.1",
      publicPort: daemonPort,
      privateHost: "127.0.0.1",
      privatePort: daemonPort,
      sftpPort: await freePort(),
    });
    expect(node.status, node.text).toBe(200);
    const { config } = (await api.get(`/api/nodes/${node.body.id}/deployment`)).body;
    // On a root test machine the node runs as nobody: what an administrator's own account is.
    const daemon = await startDaemon(config, {}, root ? asNobody() : []);
    try {
      expect(daemon.logs()).toMatch(
        /host servers refused: .*the node is not root.*OUTPOST_LOOPBACK_OPEN=allow/,
      );
      const features = await api.get(`/api/nodes/${node.body.id}/features`);
      expect(features.status, features.text).toBe(200);
      expect(features.body.loopbackReason).toMatch(/the node is not root/);
    } finally {
      await daemon.destroy();
      await api.delete(`/api/nodes/${node.body.id}`);
    }
  });
});
