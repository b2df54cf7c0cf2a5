import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { PanelClient } from "../support/http-client.ts";
import { admin, type PanelProcess, startPanel, stopChild } from "../support/panel-process.ts";
import { waitForExit } from "../support/poll.ts";
import { type PostgresCluster, startPostgres } from "../support/postgres-cluster.ts";
import { expect, test } from "./fixtures.ts";
import { signIn, snap } from "./helpers.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/**
 * The web app behind HAProxy (deploy/haproxy.cfg) when the panel it talks to
 * dies: its console socket opens again through the balancer on another panel,
 * and the console fetches from the node's ring what was printed meanwhile,
 * shown once, after what it had shown. The page first reaches panel 1 (panel
 * 2 is not started yet, so the balancer has only panel 1); panel 2 starts,
 * then panel 1 is killed with kill -9.
 */
test.describe("several panels behind HAProxy", () => {
  let cluster: PostgresCluster;
  let haproxy: ChildProcess;
  let daemon: DaemonProcess;
  const panels: PanelProcess[] = [];
  let lb: string;
  let stats: string;
  let panel2Port: number;
  let env: Record<string, string>;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startPostgres();
    const name = `e2e_${randomBytes(4).toString("hex")}`;
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    env = {
      OUTPOST_LOCAL_NODE: "false",
      OUTPOST_TRUST_PROXY: "127.0.0.1",
      OUTPOST_SECRET_KEY: randomBytes(32).toString("hex"),
    };
    const databaseUrl = cluster.url.replace(/\/[^/]*$/, `/${name}`);
    const webDir = path.join(repoRoot, "dist");
    panels.push(await startPanel({ databaseUrl, env, webDir }));
    const [lbPort, statsPort] = [await freePort(), await freePort()];
    panel2Port = await freePort();
    lb = `http://127.0.0.1:${lbPort}`;
    stats = `http://127.0.0.1:${statsPort}/stats;csv`;
    haproxy = spawn("haproxy", ["-f", path.join(repoRoot, "deploy/haproxy.cfg")], {
      env: {
        ...process.env,
        OUTPOST_LB_BIND: `127.0.0.1:${lbPort}`,
        OUTPOST_LB_STATS: `127.0.0.1:${statsPort}`,
        OUTPOST_PANEL_1: panels[0].url.replace("http://", ""),
        OUTPOST_PANEL_2: `127.0.0.1:${panel2Port}`,
        // No third panel: a port nothing listens on, marked down.
        OUTPOST_PANEL_3: `127.0.0.1:${await freePort()}`,
      },
      stdio: "ignore",
    });
    await expect
      .poll(() => states(stats), { timeout: 20_000 })
      .toMatchObject({ panel1: "UP", panel2: "DOWN" });
    // A remote node, as every panel of a scaled-out site reaches its servers.
    const api = await signedIn(lb);
    const node = await api.post("/api/nodes", {
      name: "e2e-scale",
      publicHost: "127.0.0.1",
      publicPort: await freePort(),
      privateHost: "127.0.0.1",
      privatePort: await freePort(),
      sftpPort: await freePort(),
    });
    expect(node.status).toBe(200);
    daemon = await startDaemon((await api.get(`/api/nodes/${node.body.id}/deployment`)).body.config);
    const created = await api.put("/api/servers/e2escale", {
      ...echoDefinition(),
      name: "scaled",
      node: node.body.id,
    });
    expect(created.status).toBe(200);
  });

  test.afterAll(async () => {
    if (haproxy) await stopChild(haproxy);
    await daemon?.destroy();
    for (const p of panels) await p.stop();
    cluster?.stop();
  });

  test("the console reconnects through the balancer to another panel and loses nothing it showed", async ({
    page,
  }) => {
    const api = await signedIn(lb);
    await page.goto(`${lb}/servers/view/e2escale`);
    await signIn(page);
    const socketState = page.getByTestId("socket-state");
    const output = page.getByTestId("console-output");
    await expect(socketState).toHaveAttribute("data-state", "open");
    expect((await api.post("/api/servers/e2escale/start")).status).toBe(204);
    await expect(output).toContainText("ready hello on 25565");
    const input = page.getByTestId("console-input");
    await input.fill("before");
    await input.press("Enter");
    await expect(output).toContainText("pong before");

    // Panel 2 joins; then panel 1, which holds the page's socket, dies where it stands.
    panels.push(
      await startPanel({
        databaseUrl: panels[0].databaseUrl,
        env: { ...env, OUTPOST_PORT: String(panel2Port) },
        webDir: path.join(repoRoot, "dist"),
      }),
    );
    await expect.poll(() => states(stats), { timeout: 20_000 }).toMatchObject({ panel1: "UP", panel2: "UP" });
    process.kill(panels[0].pid, "SIGKILL");
    await waitForExit(panels[0].pid);
    await expect.poll(() => states(stats), { timeout: 20_000 }).toMatchObject({ panel1: "DOWN" });
    // Printed while the page had no socket.
    expect((await api.call("POST", "/api/servers/e2escale/console", { raw: "meanwhile" })).status).toBe(204);

    await expect(socketState).toHaveAttribute("data-state", "open", { timeout: 20_000 });
    await expect(output).toContainText("pong meanwhile");
    await input.fill("after");
    await input.press("Enter");
    await expect(output).toContainText("pong after");
    const lines = await output.evaluate((el) => [...el.children].map((line) => line.textContent ?? ""));
    for (const line of ["ready hello on 25565", "pong before", "pong meanwhile", "pong after"])
      expect(
        lines.filter((l) => l === line),
        line,
      ).toHaveLength(1);
    expect(lines.indexOf("pong before")).toBeLessThan(lines.indexOf("pong meanwhile"));
    expect(lines.indexOf("pong meanwhile")).toBeLessThan(lines.indexOf("pong after"));
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, "scale-out-console-after-failover-desktop");
    // At phone size, loaded afresh through the balancer: the console comes back from the ring.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(output).toContainText("pong after");
    await snap(page, "scale-out-console-after-failover-phone");
    await api.post("/api/servers/e2escale/kill");
  });
});

async function signedIn(base: string): Promise<PanelClient> {
  const client = new PanelClient(base);
  const res = await client.login(admin.email, admin.password);
  expect(res.status, res.text).toBe(200);
  return client;
}

/** Each panel's state as HAProxy sees it (UP, DOWN, …), from its status page. */
async function states(stats: string): Promise<Record<string, string>> {
  try {
    const lines = (await (await fetch(stats)).text()).split("\n");
    const columns = lines[0].replace(/^# /, "").split(",");
    const found: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const row = line.split(",");
      if (row[columns.indexOf("pxname")] === "panels")
        found[row[columns.indexOf("svname")]] = row[columns.indexOf("status")].split(" ")[0];
    }
    return found;
  } catch {
    return {};
  }
}
