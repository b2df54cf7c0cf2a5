import { freePort } from "../support/free-port.ts";
import { S3StandIn, s3Keys } from "../support/s3-stand-in.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snapTop } from "./helpers.ts";

/**
 * The node screen's Backups form, against s3rver on 127.0.0.1 standing in
 * for S3. It sets the local node's target, so it puts the node's disk back
 * at the end (the other specs back up there).
 */
test("an admin points the local node's backups at S3: a bucket it cannot reach is refused, the secret is never shown", async ({
  page,
  baseURL,
}) => {
  const s3 = await S3StandIn.start();
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/nodes/view/0");
    await login(page);
    const form = page.getByTestId("backup-target-form");
    await expect(form).toBeVisible();
    await expect(page.getByTestId("backup-target-type")).toHaveValue("local");

    await page.getByTestId("backup-target-type").selectOption("s3");
    // Nothing listens here: the node cannot reach it, and says so.
    await form.getByLabel("Endpoint").fill(`http://127.0.0.1:${await freePort()}`);
    await form.getByLabel("Bucket").fill("outpost-backups");
    await form.getByLabel("Prefix").fill("e2e");
    await form.getByLabel("Access key ID").fill(s3Keys.accessKeyId);
    await form.getByLabel(/^Secret access key/).fill(s3Keys.secretAccessKey);
    await form.getByRole("switch", { name: "Path-style addresses" }).check();
    await page.getByTestId("backup-target-save").click();
    await expect(page.getByTestId("backup-target-problem")).toContainText(
      "The node cannot reach its backup storage",
    );
    await snapTop(page, "node-backup-target-refused-desktop");

    // A field the panel refuses is marked beside it.
    await form.getByLabel("Bucket").fill("Not_A_Bucket");
    await page.getByTestId("backup-target-save").click();
    await expect(form.getByText("Bucket is not valid")).toBeVisible();

    await form.getByLabel("Endpoint").fill(s3.endpoint);
    await form.getByLabel("Bucket").fill("outpost-backups");
    await page.getByTestId("backup-target-save").click();
    await expect(page.getByText("Backup target saved")).toBeVisible();
    // Stored as the node uses it; the secret is write-only: set, never shown.
    await expect(form.getByLabel("Prefix")).toHaveValue("e2e/");
    const secret = form.getByLabel(/^Secret access key \(set\)/);
    await expect(secret).toHaveValue("");
    await snapTop(page, "node-backup-target-desktop");

    await page.reload();
    await expect(page.getByTestId("backup-target-type")).toHaveValue("s3");
    await expect(form.getByLabel("Endpoint")).toHaveValue(s3.endpoint);
    await expect(form.getByLabel(/^Secret access key \(set\)/)).toHaveValue("");
    expect(await page.content()).not.toContain(`value="${s3Keys.secretAccessKey}"`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(form).toBeVisible();
    await form.scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snapTop(page, "node-backup-target-phone");

    // Back to the node's disk through the form.
    await page.getByTestId("backup-target-type").selectOption("local");
    await page.getByTestId("backup-target-save").click();
    await expect(page.getByText("Backup target saved")).toBeVisible();
  } finally {
    const api = await adminApi(baseURL as string);
    await api.put("/api/nodes/0", { backupTarget: { type: "local" } });
    await s3.destroy();
  }
});
