import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { type DockerEngine, startDockerEngine, testImage } from "../support/docker-engine.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, editorText, expectEditorJson, login, newServerId, snap, unique } from "./helpers.ts";

// Issue 28: a Pelican egg (YAML, PLCN_v3) imported from a file on the Templates page, then a
// server created from it in the wizard. Eggs run in the docker environment, so this test has a
// panel of its own whose node reaches a Docker engine (started here if the machine runs none),
// and the egg names the test image built offline.

const repoRoot = path.resolve(import.meta.dirname, "../..");
let engine: DockerEngine;
let panel: PanelProcess;

// Each test drives a template import and a server to a running state, the first through the whole
// wizard and an install in a container: under load (2 busy cores) the steps alone took 55 s of the
// default minute, and the install's own wait had no time left.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  engine = await startDockerEngine();
  panel = await startPanel({
    webDir: path.join(repoRoot, process.env.E2E_DIST || "dist"),
    env: { OUTPOST_DOCKER_SOCKET: engine.socket },
  });
});

test.afterAll(async () => {
  await panel?.stop();
  await engine?.close();
});

async function top(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
}

const eggYaml = (name: string) => `meta:
  version: PLCN_v3
name: ${name}
description: An egg written for the end-to-end tests.
docker_images:
  Busybox: '${testImage}'
startup_commands:
  Default: 'echo ready on {{SERVER_PORT}}'
config:
  files: {}
  startup:
    done: ready on
  stop: ^C
scripts:
  installation:
    script: echo installed > /mnt/server/installed.txt
    container: '${testImage}'
    entrypoint: sh
variables:
  - name: Greeting
    description: What the server says.
    env_variable: GREETING
    default_value: hello
    user_viewable: true
    user_editable: true
    rules: [required, string, 'max:20']
file_denylist: []
features: [eula]
`;

test("an admin imports an egg from a file on the Templates page and creates a server from it", async ({
  page,
}) => {
  const api = await adminApi(panel.url);
  const display = unique("E2E egg ");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-e2e-egg-"));
  const fileName = `${unique("egg-e2e-")}.yaml`;
  const file = path.join(dir, fileName);
  fs.writeFileSync(file, eggYaml(display));
  const name = fileName.replace(/\.yaml$/, "");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${panel.url}/templates/new`);
  await login(page);
  await expect(page.getByTestId("template-status")).toHaveText("Valid template");
  await page.getByTestId("template-import-file").setInputFiles(file);
  // The egg is converted in the page: the editor holds the template it becomes.
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByTestId("template-status")).toHaveText("Valid template");
  await expectEditorJson(page.getByTestId("template-json"), { display });
  const converted = JSON.parse(await editorText(page.getByTestId("template-json")));
  expect(converted).toMatchObject({
    display,
    run: { command: "echo ready on ${port}", stopCode: 2 },
    environment: { type: "docker", image: testImage },
    egg: { format: "PLCN_v3", done: ["ready on"], features: ["eula"] },
  });
  await expect(page.getByLabel("Display name")).toHaveValue(display);
  await top(page, "template-import-egg-desktop");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/view/0/${name}$`));

  const server = unique("egg-server-");
  await page.goto(`${panel.url}/servers/new`);
  await page.getByTestId("template-search").fill(name);
  await page.getByTestId("template-item").filter({ hasText: display }).click();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-next").click();
  const settings = page.getByTestId("wizard-settings");
  await settings.getByTestId("server-name").fill(server);
  await expect(settings.getByLabel("Greeting")).toHaveValue("hello");
  // The egg's eula feature: the wizard asks.
  await settings.getByLabel("Accept the Minecraft EULA").check();
  // The egg's rules (max:20) are checked here, as the node would, in the page's words.
  await settings.getByLabel("Greeting").fill("x".repeat(21));
  await page.getByTestId("wizard-create").click();
  await expect(settings.getByText("Maximum length: 20")).toBeVisible();
  await top(page, "server-wizard-egg-desktop");
  await settings.getByLabel("Greeting").fill("hello");
  await page.getByTestId("wizard-create").click();
  await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
  const id = page.url().split("/").pop() as string;
  const definition = (await api.get(`/api/servers/${id}/definition`)).body;
  expect(definition).toMatchObject({
    environment: { type: "docker", image: testImage, containerRoot: "/home/container" },
    egg: { install: { image: testImage, entrypoint: "sh" } },
    data: { GREETING: { value: "hello", userEdit: true }, EULA: { value: true } },
  });
  // The wizard installs it: the egg's script ran in its install container, the folder at /mnt/server.
  await expect
    .poll(async () => (await api.get(`/api/servers/${id}/status`)).body, { timeout: 30_000 })
    .toMatchObject({ installing: false, installed: true });
  expect(fs.readFileSync(path.join(panel.dataDir, "node", "servers", id, "installed.txt"), "utf8")).toBe(
    "installed\n",
  );
  await page.reload();
  await top(page, "server-from-egg-desktop");
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an admin imports an egg by pasting it and from a URL; a server waiting for its done line shows Starting", async ({
  page,
}) => {
  const api = await adminApi(panel.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${panel.url}/templates/new`);
  await login(page);
  await expect(page.getByTestId("template-status")).toHaveText("Valid template");

  // A whole egg pasted into the editor is imported (YAML too): converted, its name kept.
  const pasted = unique("Pasted egg ");
  await page.getByTestId("template-json").evaluate((area, text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    area.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, eggYaml(pasted));
  await expect(page.getByLabel("Display name")).toHaveValue(pasted);
  const name = pasted.replace(/ /g, "-");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expectEditorJson(page.getByTestId("template-json"), {
    display: pasted,
    egg: { format: "PLCN_v3" },
  });
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/view/0/${name}$`));
  expect((await api.get(`/api/templates/0/${name}`)).body.display).toBe(pasted);

  // From a URL: the panel fetches it (an administrator may name the site's own addresses).
  const fetched = unique("Fetched egg ");
  const fileName = `${unique("egg-url-")}.yaml`;
  const site = http.createServer((_req, res) => res.end(eggYaml(fetched)));
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  try {
    await page.goto(`${panel.url}/templates/new`);
    await page.getByRole("button", { name: "Import from a URL" }).click();
    const dialog = page.getByTestId("import-url-dialog");
    await dialog
      .getByLabel("URL")
      .fill(`http://127.0.0.1:${(site.address() as AddressInfo).port}/${fileName}`);
    await top(page, "template-import-url-desktop");
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel("Display name")).toHaveValue(fetched);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(fileName.replace(/\.yaml$/, ""));
    await expect(page.getByTestId("template-status")).toHaveText("Valid template");
    // A fetch that fails says why at the field.
    await page.getByRole("button", { name: "Import from a URL" }).click();
    await dialog.getByLabel("URL").fill("http://127.0.0.1:1/missing.json");
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect(dialog.getByText(/The file could not be fetched/)).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await top(page, "template-import-url-failed-phone");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  } finally {
    await new Promise((r) => site.close(r));
  }

  // Starting: running, its done line ("pong", its answer to a console line) not seen yet; Online once it appears.
  const id = newServerId();
  const serverName = unique("starting-");
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition({ display: "Echo egg" }),
    name: serverName,
    node: 0,
    egg: { format: "PTDL_v2", done: ["pong"] },
  });
  expect(created.status, created.text).toBe(200);
  try {
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${panel.url}/servers/view/${id}`);
    const badge = page.locator(".server-head [data-status]");
    await expect(badge).toHaveAttribute("data-status", "starting");
    await expect(badge).toHaveText("Starting");
    // Running: Stop and Kill are offered, not Start.
    await expect(page.getByTestId("action-stop")).toBeVisible();
    await expect(page.getByTestId("action-start")).toHaveCount(0);
    await top(page, "server-starting-desktop");
    await page.goto(`${panel.url}/servers`);
    const entry = page.getByTestId("server-entry").filter({ hasText: serverName });
    await expect(entry.locator("[data-status]")).toHaveAttribute("data-status", "starting");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(entry.locator("[data-status]")).toHaveAttribute("data-status", "starting");
    await top(page, "server-list-starting-phone");
    // The done line appears: online, live.
    expect((await api.post(`/api/servers/${id}/console`, "go")).status).toBe(204);
    await expect(entry.locator("[data-status]")).toHaveAttribute("data-status", "online");
  } finally {
    await api.post(`/api/servers/${id}/kill`);
    await api.delete(`/api/servers/${id}`);
  }
});
