import type { Page, WebSocketRoute } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, signIn, snap, tr, unique } from "./helpers.ts";

// A console watcher the panel cuts off for not keeping up (issue 12: the socket closes with 1013).
// The page's socket goes through Playwright to the real panel; the test holds back the panel's
// frames (the watcher "does not read") and then closes the page's side with 1013, as the panel
// would. The console resyncs from the server's ring: what the ring still holds comes back once,
// and where the ring moved on a marker line says that lines were skipped.

const MARKER = "Some lines were skipped: the connection could not keep up";
const FLOOD_LINES = 1500; // about 75 KiB, more than the 50 KiB ring

/** The echo server, plus "flood": many lines at once, then "flood done". */
function floodDefinition() {
  const base = echoDefinition();
  return {
    ...base,
    run: {
      ...base.run,
      command: `sh -c 'echo "ready $1 on $2"; while read line; do [ "$line" = stop ] && { echo bye; exit 0; }; if [ "$line" = flood ]; then i=0; while [ $i -lt ${FLOOD_LINES} ]; do echo "flood line $i of the console that could not keep up"; i=$((i+1)); done; echo "flood done"; else echo "pong $line"; fi; done' echo "\${motd}" "\${port}"`,
    },
  };
}

/** Proxies the server's socket; while `stalled`, the panel's frames never reach the page. */
class SocketTap {
  current: WebSocketRoute | undefined;
  stalled = false;
  connections = 0;

  async attach(page: Page): Promise<void> {
    await page.routeWebSocket(/\/api\/servers\/[0-9a-f]+\/socket$/, (ws) => {
      const server = ws.connectToServer();
      this.connections++;
      this.current = ws;
      this.stalled = false;
      server.onMessage((message) => {
        if (!this.stalled || this.current !== ws) ws.send(message);
      });
      ws.onClose(() => server.close());
      server.onClose((code, reason) => ws.close({ code, reason }));
    });
  }

  /** What the panel does to a watcher that does not read. */
  async dropTooSlow(): Promise<void> {
    await this.current?.close({
      code: 1013,
      reason: "too slow: the stream was dropped; reconnect to resync",
    });
  }
}

async function startFloodServer(api: PanelClient): Promise<string> {
  const id = `${Date.now().toString(16).slice(-6)}cc`;
  const created = await api.put(`/api/servers/${id}`, {
    ...floodDefinition(),
    name: unique("resync-"),
    node: 0,
  });
  expect(created.status).toBe(200);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  return id;
}

/** Sends a console command through the API and waits until the server's ring holds `until`. */
async function printWhileStalled(
  api: PanelClient,
  id: string,
  command: string,
  until: string,
): Promise<void> {
  expect((await api.call("POST", `/api/servers/${id}/console`, { raw: command })).status).toBe(204);
  await expect
    .poll(async () => {
      const answer = await api.get<{ logs: string }>(`/api/servers/${id}/console`);
      return Buffer.from(answer.body.logs, "base64").toString();
    })
    .toContain(until);
}

/** The console's lines as text, with the marker lines tagged. */
function consoleLines(page: Page): Promise<string[]> {
  return page
    .getByTestId("console-output")
    .evaluate((el) =>
      [...el.children].map((line) =>
        line.classList.contains("console-mark") ? `[mark] ${line.textContent}` : (line.textContent ?? ""),
      ),
    );
}

async function signInTo(page: Page, id: string): Promise<void> {
  await page.goto(`/servers/view/${id}`);
  await signIn(page);
  await expect(page.getByTestId("socket-state")).toHaveAttribute("data-state", "open");
  await expect(page.getByTestId("console-output")).toContainText("ready hello on 25565");
}

test("a console cut off as too slow resyncs without repeats and marks the lines it lost", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = await startFloodServer(api);
  const tap = new SocketTap();
  await tap.attach(page);
  await signInTo(page, id);
  const output = page.getByTestId("console-output");
  const input = page.getByTestId("console-input");
  const socketState = page.getByTestId("socket-state");
  await input.fill("before");
  await input.press("Enter");
  await expect(output).toContainText("pong before");

  // 1. Dropped while the ring still holds everything: it all comes back, once, with no marker.
  tap.stalled = true;
  await printWhileStalled(api, id, "while stalled", "pong while stalled");
  await tap.dropTooSlow();
  await expect(output).toContainText("pong while stalled");
  let lines = await consoleLines(page);
  expect(lines.filter((l) => l === "pong before")).toHaveLength(1);
  expect(lines.filter((l) => l === "pong while stalled")).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith("[mark]"))).toHaveLength(0);

  // 2. Dropped while the server printed more than its ring keeps: a marker where the lines went.
  await expect(socketState).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  expect(tap.connections).toBe(2);
  tap.stalled = true;
  await printWhileStalled(api, id, "flood", "flood done");
  await tap.dropTooSlow();
  const marker = output.locator(".console-mark");
  await expect(marker).toHaveText(MARKER);
  await expect(output).toContainText("flood done");
  lines = await consoleLines(page);
  const markAt = lines.indexOf(`[mark] ${MARKER}`);
  expect(markAt).toBeGreaterThan(lines.indexOf("pong while stalled"));
  expect(lines.indexOf("flood done")).toBeGreaterThan(markAt);
  // the flood's first lines left the ring before the resync: they are the ones skipped
  expect(lines).not.toContain(`flood line 0 of the console that could not keep up`);
  expect(lines.filter((l) => l === "pong while stalled")).toHaveLength(1);
  await marker.scrollIntoViewIfNeeded();
  await snap(page, "console-gap-desktop");

  // 3. The console goes on: a new socket, a command and its answer, after the marker.
  await expect(socketState).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  await input.fill("after");
  await input.press("Enter");
  await expect(output).toContainText("pong after");
  lines = await consoleLines(page);
  expect(lines.indexOf("pong after")).toBeGreaterThan(markAt);
  await page.setViewportSize({ width: 360, height: 640 });
  await marker.scrollIntoViewIfNeeded();
  await snap(page, "console-gap-phone");
  await api.post(`/api/servers/${id}/kill`);
});

test("the marker is in the page's language and reads right to left in Arabic", async ({
  browser,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = await startFloodServer(api);
  const context = await browser.newContext({
    baseURL,
    locale: "ar-SA",
    viewport: { width: 360, height: 640 },
  });
  const page = await context.newPage();
  const tap = new SocketTap();
  await tap.attach(page);
  await signInTo(page, id);
  tap.stalled = true;
  await printWhileStalled(api, id, "flood", "flood done");
  await tap.dropTooSlow();
  const output = page.getByTestId("console-output");
  const marker = output.locator(".console-mark");
  await expect(marker).toHaveText(tr("ar_SA", MARKER));
  await expect(output).toContainText("flood done");
  await marker.scrollIntoViewIfNeeded();
  await snap(page, "console-gap-ar_SA-phone");
  await context.close();
  await api.post(`/api/servers/${id}/kill`);
});
