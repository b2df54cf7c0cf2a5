import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import type { CDPSession, Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snapTop, unique } from "./helpers.ts";

// The file manager of the server view, in Chromium against a real panel and its local node: the
// files it shows and changes are real files in the server's folder, checked through the API.

declare global {
  interface Window {
    /** Every value the upload progress bars took (the progress test records them). */
    progressSeen: number[];
  }
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function cookieHeader(api: PanelClient): string {
  return [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Raw bytes through the API, as the admin (PanelClient reads answers as text). */
async function getBytes(api: PanelClient, path: string): Promise<{ status: number; bytes: Uint8Array }> {
  const res = await fetch(api.baseUrl + path, { headers: { cookie: cookieHeader(api) } });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function putBytes(api: PanelClient, path: string, bytes: Uint8Array): Promise<number> {
  const res = await fetch(api.baseUrl + path, {
    method: "PUT",
    headers: {
      cookie: cookieHeader(api),
      "x-xsrf-token": api.cookies.get("XSRF-TOKEN") ?? "",
      "content-type": "application/octet-stream",
    },
    body: new Blob([new Uint8Array(bytes)]),
  });
  await res.arrayBuffer();
  return res.status;
}

async function newServer(api: PanelClient, users: string[] = ["admin"]): Promise<string> {
  const id = randomBytes(4).toString("hex");
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition(),
    name: unique("files-"),
    node: 0,
    users,
  });
  expect(created.status).toBe(200);
  return id;
}

/** Signs in and opens the server's Files section. */
async function openFiles(page: Page, id: string, email?: string, password?: string): Promise<void> {
  await page.goto("/servers");
  await login(page, email, password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto(`/servers/view/${id}#files`);
  await expect(page.getByTestId("file-manager")).toBeVisible();
}

const row = (page: Page, name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);

/** A new server with no files, its Files section open as the admin. */
async function openEmptyServer(page: Page, baseURL: string): Promise<{ api: PanelClient; id: string }> {
  const api = await adminApi(baseURL);
  const id = await newServer(api);
  await openFiles(page, id);
  await expect(page.getByTestId("file-empty")).toBeVisible();
  return { api, id };
}

const uploadItem = (page: Page, name: string) => page.getByTestId("upload-item").filter({ hasText: name });

/** Chromium's own throttling of what the page sends, in bytes a second (-1: none). */
async function limitUpload(cdp: CDPSession, bytesPerSecond: number): Promise<void> {
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

test("the admin browses, edits, uploads, downloads, renames, archives, extracts and deletes files", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = await newServer(api);
  const files = `/api/servers/${id}/file`;
  // Something to browse: a folder with a binary file and a name that needs encoding.
  const level = randomBytes(2048);
  expect(await putBytes(api, `${files}/world/level.dat`, level)).toBe(204);
  expect(
    await putBytes(api, `${files}/world/${encodeURIComponent("notes #1 & 100%.txt")}`, Buffer.from("hi")),
  ).toBe(204);

  await openFiles(page, id);
  await expect(page.getByRole("tab", { name: "Files" })).toHaveAttribute("aria-selected", "true");

  // Browse: into a folder (kept in the address across a reload), then back up with "..".
  await expect(row(page, "world")).toHaveAttribute("data-kind", "folder");
  await expect(row(page, "..")).toHaveCount(0);
  await row(page, "world").getByRole("button", { name: "world", exact: true }).click();
  await expect(page).toHaveURL(/\?path=\/world#files$/);
  await expect(row(page, "level.dat")).toBeVisible();
  await expect(row(page, "level.dat").locator(".fm-size")).toHaveText("2 kB");
  await expect(row(page, "notes #1 & 100%.txt")).toHaveAttribute("data-kind", "text");
  await page.reload();
  await expect(row(page, "level.dat")).toBeVisible();
  await expect(page.getByTestId("file-crumbs").locator("[aria-current]")).toHaveText("world");
  const names = await page
    .getByTestId("file-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-name")));
  expect(names).toEqual(["..", "level.dat", "notes #1 & 100%.txt"]);
  // An address naming a file opens its folder (the file is not downloaded to find out); a
  // missing folder says so.
  await page.goto(`/servers/view/${id}?path=/world/level.dat#files`);
  await expect(row(page, "level.dat")).toBeVisible();
  await expect(page).toHaveURL(/\?path=\/world#files$/);
  await page.goto(`/servers/view/${id}?path=/nowhere#files`);
  await expect(page.getByTestId("file-missing")).toContainText("The folder /nowhere does not exist.");
  await page.getByRole("button", { name: "Go to the server folder" }).click();
  await expect(row(page, "world")).toBeVisible();
  await row(page, "world").getByRole("button", { name: "world", exact: true }).click();
  await page.getByRole("button", { name: "Parent folder", exact: true }).click();
  await expect(page).not.toHaveURL(/path=/);
  await expect(row(page, "world")).toBeVisible();

  // Create a folder; bad names are refused in the dialog.
  await page.getByTestId("file-new-folder").click();
  const folderDialog = page.getByTestId("new-folder-dialog");
  const folderName = folderDialog.getByLabel("Folder name");
  await folderName.fill("a/b");
  await expect(folderDialog.getByText("A name cannot contain “/”.")).toBeVisible();
  await expect(folderDialog.getByRole("button", { name: "Create", exact: true })).toBeDisabled();
  await folderName.fill("..");
  await expect(folderDialog.getByText("“.” and “..” cannot be used as names.")).toBeVisible();
  await folderName.fill("world");
  await expect(
    folderDialog.getByText("There is already a file or folder with this name here."),
  ).toBeVisible();
  await folderName.fill("configs");
  await folderDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(folderDialog).toHaveCount(0);
  await expect(row(page, "configs")).toHaveAttribute("data-kind", "folder");
  await row(page, "configs").getByRole("button", { name: "configs", exact: true }).click();
  await expect(page.getByTestId("file-empty")).toBeVisible();
  await snapTop(page, "files-empty-folder");

  // A new text file opens in the editor; Ctrl+S saves it; leaving with changes asks first.
  await page.getByTestId("file-new-file").click();
  await page.getByTestId("new-file-dialog").getByLabel("File name").fill("server.properties");
  await page.getByTestId("new-file-dialog").getByRole("button", { name: "Create", exact: true }).click();
  const editor = page.getByTestId("file-editor");
  await expect(editor).toBeVisible();
  const text = page.getByTestId("file-editor-text");
  await expect(text).toHaveText("");
  await text.fill("motd=Hello from the editor\nmax-players=10\n");
  await expect(page.getByTestId("file-editor-status")).toHaveText("Unsaved changes");
  await text.press("Control+s");
  await expect(page.getByTestId("file-editor-status")).toHaveText("No changes");
  let stored = await api.get(`${files}/configs/server.properties`);
  expect(stored.status).toBe(200);
  expect(stored.text).toBe("motd=Hello from the editor\nmax-players=10\n");

  await text.press("End");
  await text.pressSequentially("# more");
  await page.getByTestId("file-editor-close").click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Discard the changes?");
  await confirm.getByRole("button", { name: "Keep editing", exact: true }).click();
  await expect(editor).toBeVisible();
  await snapTop(page, "files-editor-desktop");
  await page.getByTestId("file-save").click();
  await expect(page.getByTestId("file-editor-status")).toHaveText("No changes");
  stored = await api.get(`${files}/configs/server.properties`);
  expect(stored.text).toBe("motd=Hello from the editor\nmax-players=10\n# more");
  await page.getByTestId("file-editor-close").click();
  await expect(editor).toHaveCount(0);
  await expect(row(page, "server.properties")).toBeVisible();

  // Upload a few MB through the picker: the progress bar ends full, the bytes arrive intact.
  const big = randomBytes(3 * 1024 * 1024 + 123);
  await page.getByTestId("file-upload-input").setInputFiles({
    name: "big upload.bin",
    mimeType: "application/octet-stream",
    buffer: big,
  });
  const item = uploadItem(page, "big upload.bin");
  await expect(item).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  const bar = item.locator("progress");
  await expect(bar).toHaveAttribute("value", String(big.length));
  await expect(bar).toHaveAttribute("max", String(big.length));
  await expect(item).toContainText("Done · 3.1 MB");
  await expect(row(page, "big upload.bin")).toBeVisible();
  const uploaded = await getBytes(api, `${files}/configs/${encodeURIComponent("big upload.bin")}`);
  expect(uploaded.status).toBe(200);
  expect(sha(uploaded.bytes)).toBe(sha(big));
  await snapTop(page, "files-uploaded-desktop");

  // Download through a plain link: the browser saves the same bytes.
  const downloading = page.waitForEvent("download");
  await row(page, "big upload.bin").getByRole("link", { name: "Download big upload.bin" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("big upload.bin");
  expect(sha(fs.readFileSync((await download.path())!))).toBe(sha(big));

  // Rename.
  await row(page, "big upload.bin")
    .getByRole("button", { name: "Rename or move big upload.bin", exact: true })
    .click();
  const moveDialog = page.getByTestId("move-dialog");
  await expect(moveDialog.getByLabel("New name or path")).toHaveValue("big upload.bin");
  await moveDialog.getByLabel("New name or path").fill("data.bin");
  await moveDialog.getByRole("button", { name: "Rename or move", exact: true }).click();
  await expect(row(page, "data.bin")).toBeVisible();
  await expect(row(page, "big upload.bin")).toHaveCount(0);

  // Archive two files into a .zip.
  await row(page, "data.bin").getByRole("checkbox", { name: "Select data.bin" }).check();
  await row(page, "server.properties").getByRole("checkbox", { name: "Select server.properties" }).check();
  await expect(page.getByTestId("file-selection")).toContainText("2 selected");
  await page.getByTestId("file-archive-selected").click();
  const archiveDialog = page.getByTestId("archive-dialog");
  await expect(archiveDialog.getByLabel("Archive name")).toHaveValue("archive.zip");
  await archiveDialog.getByLabel("Archive name").fill("bundle.tar");
  await expect(archiveDialog.getByText("The name must end in .zip or .tar.gz.")).toBeVisible();
  await archiveDialog.getByLabel("Archive name").fill("bundle.zip");
  await archiveDialog.getByRole("button", { name: "Create archive", exact: true }).click();
  await expect(row(page, "bundle.zip")).toHaveAttribute("data-kind", "archive");
  await expect(page.getByTestId("file-selection")).toHaveCount(0);

  // Extract it into a new folder.
  await row(page, "bundle.zip").getByRole("button", { name: "Extract bundle.zip", exact: true }).click();
  const extractDialog = page.getByTestId("extract-dialog");
  await expect(extractDialog.getByLabel("Into the folder")).toHaveValue("/configs");
  await extractDialog.getByLabel("Into the folder").fill("/unpacked");
  await extractDialog.getByRole("button", { name: "Extract", exact: true }).click();
  await expect(extractDialog).toHaveCount(0);
  const listing = await api.get(`${files}/unpacked`);
  expect(listing.status).toBe(200);
  expect(listing.body.map((e: { name: string }) => e.name).sort()).toEqual([
    "..",
    "data.bin",
    "server.properties",
  ]);
  expect(sha((await getBytes(api, `${files}/unpacked/data.bin`)).bytes)).toBe(sha(big));
  await page.getByRole("button", { name: "Server folder", exact: true }).click();
  await expect(row(page, "unpacked")).toBeVisible();
  await snapTop(page, "files-root-desktop");

  // Delete, with the confirm dialog: cancel keeps it, confirm removes it (with what is inside).
  await row(page, "unpacked").getByRole("button", { name: "Delete unpacked", exact: true }).click();
  await expect(confirm).toContainText("Delete unpacked?");
  await expect(confirm).toContainText("Folders are deleted with everything in them.");
  await confirm.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(row(page, "unpacked")).toBeVisible();
  await row(page, "unpacked").getByRole("button", { name: "Delete unpacked", exact: true }).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row(page, "unpacked")).toHaveCount(0);
  expect((await api.get(`${files}/unpacked`)).status).toBe(404);
});

test("a dropped folder is refused with its message; dropped files are uploaded", async ({
  page,
  baseURL,
}) => {
  const { api, id } = await openEmptyServer(page, baseURL!);

  // A DataTransfer built in the page, as a drag from the desktop would carry it.
  const drop = page.getByTestId("file-drop");
  const transfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["dropped text\n"], "dropped.txt", { type: "text/plain" }));
    return dt;
  });
  await drop.dispatchEvent("dragenter", { dataTransfer: transfer });
  await expect(drop).toHaveClass(/is-dragging/);
  await drop.dispatchEvent("drop", { dataTransfer: transfer });
  await expect(drop).not.toHaveClass(/is-dragging/);
  await expect(uploadItem(page, "dropped.txt")).toHaveAttribute("data-state", "done");
  await expect(row(page, "dropped.txt")).toBeVisible();
  expect((await api.get(`/api/servers/${id}/file/dropped.txt`)).text).toBe("dropped text\n");

  // Chromium cannot synthesise a dropped folder; its entry reports isDirectory, which is what
  // the section reads, so the page's DataTransfer item is made to answer as a folder would.
  await page.evaluate(() => {
    const original = DataTransferItem.prototype.webkitGetAsEntry;
    DataTransferItem.prototype.webkitGetAsEntry = function (this: DataTransferItem) {
      const file = this.getAsFile();
      if (file?.name === "a folder") return { isDirectory: true, isFile: false } as FileSystemEntry;
      return original.call(this);
    };
  });
  const folderTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([], "a folder"));
    return dt;
  });
  await drop.dispatchEvent("drop", { dataTransfer: folderTransfer });
  await expect(page.getByText("Uploading folders is not supported")).toBeVisible();
  await expect(page.getByTestId("upload-item")).toHaveCount(1);
});

test("upload progress moves in 64 KiB steps with bytes and percent, and Cancel stops it", async ({
  page,
  baseURL,
}) => {
  await openEmptyServer(page, baseURL!);

  // A slow link, so the upload is seen on its way.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await limitUpload(cdp, 512 * 1024);
  // Every value the progress bars take, as the page shows them.
  await page.evaluate(() => {
    const seen: number[] = [];
    window.progressSeen = seen;
    new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.target instanceof HTMLProgressElement) seen.push(Number(c.target.getAttribute("value")));
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["value"] });
  });

  const slow = randomBytes(2 * 1024 * 1024);
  await page.getByTestId("file-upload-input").setInputFiles({ name: "slow.bin", mimeType: "", buffer: slow });
  const item = uploadItem(page, "slow.bin");
  await expect(item).toHaveAttribute("data-state", "sending");
  await expect(item).toContainText(/\d+(\.\d)? (byte|kB|MB) of 2\.1 MB · \d+%/);
  await expect.poll(() => page.evaluate(() => window.progressSeen.length)).toBeGreaterThan(2);
  await snapTop(page, "files-upload-progress");
  await item.getByRole("button", { name: "Cancel upload of slow.bin" }).click();
  await expect(item).toHaveAttribute("data-state", "cancelled");
  await expect(item).toContainText("Cancelled");
  const seen = await page.evaluate(() => window.progressSeen);
  const partial = seen.filter((v) => v > 0 && v < slow.length);
  expect(partial.length).toBeGreaterThan(0);
  for (const value of partial) expect(value % 65536).toBe(0);
  expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  expect(Math.max(...seen)).toBeLessThan(slow.length);

  // Back to full speed: the next one goes through, and the finished ones can be cleared.
  await limitUpload(cdp, -1);
  await page.getByTestId("file-upload-input").setInputFiles({ name: "fast.bin", mimeType: "", buffer: slow });
  await expect(uploadItem(page, "fast.bin")).toHaveAttribute("data-state", "done");
  await expect(row(page, "fast.bin")).toBeVisible();
  await page.getByRole("button", { name: "Clear the finished uploads" }).click();
  await expect(page.getByTestId("upload-item")).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the file manager fits 390 px and its row actions open as a sheet", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!);
    const id = await newServer(api);
    const files = `/api/servers/${id}/file`;
    const longName = "a-rather-long-configuration-file-name-that-would-overflow.properties";
    expect(await putBytes(api, `${files}/${longName}`, Buffer.from("x=1\n"))).toBe(204);
    expect(await putBytes(api, `${files}/server.jar`, randomBytes(40_000))).toBe(204);
    expect((await api.put(`${files}/plugins?folder=true`)).status).toBe(200);

    await openFiles(page, id);
    await expect(row(page, "plugins")).toBeVisible();
    await expect(row(page, longName)).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // Actions sit behind one button per row, big enough to tap.
    const more = row(page, "server.jar").getByRole("button", { name: "Actions for server.jar", exact: true });
    await expect(more).toBeVisible();
    await expect(
      row(page, "server.jar").getByRole("button", { name: "Delete server.jar", exact: true }),
    ).toBeHidden();
    const box = await more.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(40);
    expect(box!.height).toBeGreaterThanOrEqual(40);
    const checkbox = await row(page, "server.jar").locator(".fm-check-hit").boundingBox();
    expect(checkbox!.width).toBeGreaterThanOrEqual(40);
    await snapTop(page, "files-phone");

    await more.click();
    const sheet = page.getByTestId("file-actions-sheet");
    await expect(sheet.getByRole("link", { name: "Download server.jar" })).toBeVisible();
    await snapTop(page, "files-actions-phone");
    await sheet.getByRole("button", { name: "Rename or move server.jar", exact: true }).click();
    await expect(sheet).toHaveCount(0);
    await page.getByTestId("move-dialog").getByLabel("New name or path").fill("/plugins/server.jar");
    await page
      .getByTestId("move-dialog")
      .getByRole("button", { name: "Rename or move", exact: true })
      .click();
    await expect(row(page, "server.jar")).toHaveCount(0);
    expect((await api.get(`${files}/plugins/server.jar`)).status).toBe(200);

    // The editor fits as well.
    await row(page, longName).getByRole("button", { name: longName, exact: true }).click();
    await expect(page.getByTestId("file-editor-text")).toHaveText("x=1");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snapTop(page, "files-editor-phone");
  });
});

test("a user with only server.files.view browses and reads but sees no control that changes files", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const username = unique("viewer");
  const user = { username, email: `${username}@example.com`, password: "viewer-password-1" };
  const client = new PanelClient(baseURL!);
  await client.prime();
  expect((await client.post("/auth/register", user)).status).toBe(200);
  const id = await newServer(api, []);
  const files = `/api/servers/${id}/file`;
  expect(await putBytes(api, `${files}/config/settings.yml`, Buffer.from("difficulty: hard\n"))).toBe(204);
  expect(await putBytes(api, `${files}/world.zip`, randomBytes(1000))).toBe(204);
  expect(await putBytes(api, `${files}/config/latest.log`, Buffer.alloc(2_600_000, "log line\n"))).toBe(204);
  expect(await putBytes(api, `${files}/config/level.dat`, Buffer.from([0, 159, 146, 150, 0, 1]))).toBe(204);
  const granted = await api.put(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, {
    scopes: ["server.view", "server.files.view"],
  });
  expect(granted.status).toBe(204);

  await openFiles(page, id, user.email, user.password);
  await expect(row(page, "config")).toBeVisible();
  for (const control of ["file-new-folder", "file-new-file", "file-upload", "file-upload-input"]) {
    await expect(page.getByTestId(control)).toHaveCount(0);
  }
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(row(page, "world.zip").getByRole("link", { name: "Download world.zip" })).toBeVisible();
  for (const action of ["Rename or move", "Extract", "Delete"]) {
    await expect(page.getByRole("button", { name: `${action} world.zip` })).toHaveCount(0);
  }
  await snapTop(page, "files-view-only");

  // Text opens read-only, without a save button.
  await row(page, "config").getByRole("button", { name: "config", exact: true }).click();
  await row(page, "settings.yml").getByRole("button", { name: "settings.yml", exact: true }).click();
  await expect(page.getByTestId("file-editor-text")).toHaveText("difficulty: hard");
  await expect(page.getByTestId("file-editor-text")).toHaveAttribute("aria-readonly", "true");
  // Typing changes nothing.
  await page.getByTestId("file-editor-text").click();
  await page.keyboard.type("x");
  await expect(page.getByTestId("file-editor-text")).toHaveText("difficulty: hard");
  await expect(page.getByTestId("file-save")).toHaveCount(0);
  await expect(page.getByTestId("file-editor-status")).toHaveText("Read only");

  // Too large or not text: the editor says so and offers the download instead.
  await page.getByTestId("file-editor-close").click();
  await row(page, "latest.log").getByRole("button", { name: "latest.log", exact: true }).click();
  await expect(page.getByTestId("file-editor-refused")).toHaveText(
    "This file has 2.6 MB, more than the 2.1 MB the editor opens. Download it instead.",
  );
  await expect(page.getByTestId("file-editor").getByRole("link", { name: "Download" })).toBeVisible();
  await page.getByTestId("file-editor-close").click();
  await row(page, "level.dat").getByRole("button", { name: "View level.dat", exact: true }).click();
  await expect(page.getByTestId("file-editor-refused")).toContainText("This file is not text");
  await page.getByTestId("file-editor-close").click();

  // And the API agrees: changing is refused.
  const viewer = new PanelClient(baseURL!);
  expect((await viewer.login(user.email, user.password)).status).toBe(200);
  expect((await viewer.delete(`${files}/world.zip`)).status).toBe(403);
});
