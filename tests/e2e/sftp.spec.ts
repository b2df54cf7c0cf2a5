import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { echoDefinition } from "../support/echo-template.ts";
import { runSftp } from "../support/sftp-client.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, login, snap, unique } from "./helpers.ts";

// The SFTP section shows what to type into a client, and what it shows works: the test signs in
// with OpenSSH's sftp using the host, port and user name read from the page.
test("the SFTP section shows a login that OpenSSH's sftp accepts", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const id = unique("sftp");
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "SFTP test", node: 0 })).status,
  ).toBe(200);
  const node = (await api.get("/api/nodes/0")).body;

  await page.goto(`/servers/view/${id}#sftp`);
  await login(page);
  const section = page.locator("#section-sftp");
  await expect(page.getByRole("tab", { name: "SFTP" })).toHaveAttribute("aria-selected", "true");
  await expect(section.getByTestId("sftp-username")).toHaveValue(`${admin.email}#${id}`);
  await expect(section.getByTestId("sftp-host")).toHaveValue(node.publicHost);
  await expect(section.getByTestId("sftp-port")).toHaveValue(String(node.sftpPort));
  await expect(section.getByTestId("sftp-command")).toHaveText(
    `sftp -P ${node.sftpPort} '${admin.email}#${id}@${node.publicHost}'`,
  );
  await expect(section.getByTestId("sftp-sign-in")).toContainText(
    "Sign in with one of your SSH keys or your panel password.",
  );
  await snap(page, "sftp-desktop");

  const host = await section.getByTestId("sftp-host").inputValue();
  const port = Number(await section.getByTestId("sftp-port").inputValue());
  const user = await section.getByTestId("sftp-username").inputValue();
  const run = await runSftp({ host, port, user, password: admin.password }, ["pwd"]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("Remote working directory: /");

  await page.setViewportSize({ width: 390, height: 844 });
  // The sidebar slides away below 1200 px; the picture is taken once it has gone.
  await expect(page.locator(".sidebar")).toBeHidden();
  await expect(section.getByTestId("sftp-command")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "sftp-phone");
});

// A key added on the account page signs in to SFTP alone (issue 39), and removing it there ends that.
test("an SSH key added on the account page signs in to SFTP", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const id = unique("sftpkey");
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "SFTP key test", node: 0 })).status,
  ).toBe(200);
  const node = (await api.get("/api/nodes/0")).body;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-e2e-key-"));
  try {
    const file = path.join(dir, "id_ed25519");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "e2e@laptop", "-f", file]);
    const line = fs.readFileSync(`${file}.pub`, "utf8").trim();

    await page.goto(`/servers/view/${id}#sftp`);
    await login(page);
    await page.locator("#section-sftp").getByTestId("sftp-keys-link").click();
    await expect(page).toHaveURL(/\/self$/);
    await page.getByTestId("ssh-key-text").fill(line);
    await page.getByTestId("add-ssh-key").click();
    const entry = page.getByTestId("ssh-key").filter({ hasText: "e2e@laptop" });
    await expect(entry).toContainText("SHA256:");
    await entry.scrollIntoViewIfNeeded();
    await snap(page, "ssh-keys-desktop");

    const user = `${admin.email}#${id}`;
    const signIn = () => runSftp({ port: node.sftpPort, user, password: "", identity: file }, ["pwd"]);
    const run = await signIn();
    expect(run.code, run.stderr).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await entry.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "ssh-keys-phone");

    await entry.getByTestId("remove-ssh-key").click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect(entry).toHaveCount(0);
    expect((await signIn()).code).not.toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
