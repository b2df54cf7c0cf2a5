import { SmtpInbox } from "../support/smtp-inbox.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, login, snap } from "./helpers.ts";

// Settings the other specs rely on go back to what they were after this file.
const restore = {
  "panel.settings.companyName": "Outpost",
  "panel.email.provider": "",
  "panel.email.host": "",
  "panel.email.from": "",
  "panel.email.username": "",
};

test("an administrator sets up SMTP, saves, finds it after a reload and sends a test email", async ({
  page,
  baseURL,
}) => {
  const inbox = new SmtpInbox({ username: "outpost", password: "smtp-pass-E2e" });
  const port = await inbox.start();
  try {
    await page.goto("/auth/login");
    await login(page);
    await expect(page).toHaveURL(/\/servers$/);
    await page.goto("/settings");
    await page.getByTestId("setting-company").fill("Harbour Games");
    await page.getByLabel("Provider").selectOption("smtp");
    await page.getByTestId("setting-email-from").fill("panel@example.com");
    await page.getByTestId("setting-email-host").fill(`127.0.0.1:${port}`);
    await page.getByTestId("setting-email-username").fill("outpost");
    await expect(page.getByTestId("setting-email-password")).toContainText("not set");
    await page.getByTestId("setting-email-password-input").fill("smtp-pass-E2e");
    await expect(page.getByTestId("send-test-email")).toBeDisabled();
    await page.getByTestId("settings-save").click();
    await expect(page.getByText("Settings saved")).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("setting-company")).toHaveValue("Harbour Games");
    await expect(page.getByLabel("Provider")).toHaveValue("smtp");
    await expect(page.getByTestId("setting-email-host")).toHaveValue(`127.0.0.1:${port}`);
    // The password is write-only: the screen says it is set and never shows it.
    await expect(page.getByTestId("setting-email-password")).toContainText("(set)");
    await expect(page.getByTestId("setting-email-password-input")).toHaveValue("");
    await expect(page).toHaveTitle(/Harbour Games/);
    await snap(page, "settings-desktop");

    await page.getByTestId("send-test-email").click();
    await expect(page.getByTestId("test-email-result")).toContainText(
      `A test email was sent to ${admin.email}`,
    );
    const mail = await inbox.nth(1);
    expect(mail.to).toEqual([admin.email]);
    expect(mail.headers.get("subject")).toBe("Harbour Games: test e-mail");

    // A refusing server: its reason is shown.
    inbox.refuseRecipients = true;
    await page.getByTestId("send-test-email").click();
    await expect(page.getByTestId("test-email-result")).toContainText("550 No such mailbox here");
    inbox.refuseRecipients = false;
    await snap(page, "settings-test-failed");

    // Clearing the password: saved as cleared, then "not set".
    await page.getByTestId("setting-email-password-clear").click();
    await expect(page.getByTestId("setting-email-password")).toContainText("will be cleared");
    await page.getByTestId("settings-save").click();
    await expect(page.getByText("Settings saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("setting-email-password")).toContainText("not set");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId("setting-company")).toBeVisible();
    await snap(page, "settings-phone");
  } finally {
    await inbox.stop();
    const api = await adminApi(baseURL!);
    await api.post("/api/settings", restore);
  }
});
