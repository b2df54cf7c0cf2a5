import type { Page } from "@playwright/test";
import { currentOtp } from "../../server/panel/otp.ts";
import { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { login, preferencesSaved, registerUser, snap } from "./helpers.ts";

/** A new user, signed in, on the account page. */
async function onAccountPage(page: Page, baseURL: string) {
  const user = await registerUser(baseURL, "twofa");
  await page.goto("/auth/login");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/self");
  return user;
}

/** Starts enrolment and answers the key as the screen shows it (read off, as a person would type it). */
async function startEnrolment(page: Page, shot: string): Promise<string> {
  await page.getByTestId("otp-start").click();
  const secret = (await page.getByTestId("otp-secret").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await snap(page, shot);
  return secret;
}

async function confirmEnrolment(page: Page, secret: string) {
  await page.getByTestId("otp-confirm-code").fill(currentOtp(secret));
  await page.getByTestId("otp-confirm").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
}

async function logout(page: Page) {
  const logoutButton = page.getByRole("button", { name: "Logout" });
  if (!(await logoutButton.isVisible())) await page.getByRole("button", { name: "Menu" }).click();
  await logoutButton.click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

test("a user enrols two-factor from the key shown, signs in with a code and later with a recovery code", async ({
  page,
  baseURL,
}) => {
  const user = await onAccountPage(page, baseURL!);
  const secret = await startEnrolment(page, "self-otp-enrol");
  const enrol = page.getByTestId("otp-enrol");
  await expect(enrol.getByRole("img", { name: "QR code of the two-factor key" })).toBeVisible();
  // The QR code is drawn by the panel itself: an inline image, no third-party request.
  expect(await enrol.getByRole("img").getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  await confirmEnrolment(page, secret);

  const codes = page.getByTestId("recovery-code");
  const recovery = await codes.allInnerTexts();
  // Two per row: the first two side by side, the third below them.
  const [a, b, c] = await Promise.all([0, 1, 2].map((i) => codes.nth(i).boundingBox()));
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
  expect(b!.x).toBeGreaterThan(a!.x);
  expect(c!.y).toBeGreaterThan(a!.y + a!.height / 2);
  const download = page.waitForEvent("download");
  await page.getByTestId("download-codes").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("recovery-codes.txt");
  await snap(page, "self-recovery-codes");
  await page.getByTestId("codes-done").click();
  await expect(page.getByTestId("otp-on")).toContainText("10 recovery codes left");

  // Signing in now asks for a code; the app's next code opens the session.
  await logout(page);
  await login(page, user.email, user.password);
  await expect(page.getByTestId("otp-digit")).toHaveCount(6);
  await page
    .getByTestId("otp-digit")
    .first()
    .fill(currentOtp(secret, Date.now() + 30_000));
  await expect(page).toHaveURL(/\/(servers|self)$/);

  // Later, without the phone: a recovery code, once.
  await logout(page);
  await login(page, user.email, user.password);
  await page.getByTestId("use-recovery").click();
  await page.getByTestId("login-recovery").fill(recovery[0]);
  await snap(page, "login-recovery-code");
  await page.getByTestId("otp-submit").click();
  await expect(page).toHaveURL(/\/(servers|self)$/);
  await page.goto("/self");
  await expect(page.getByTestId("otp-on")).toContainText("9 recovery codes left");

  await logout(page);
  await login(page, user.email, user.password);
  await page.getByTestId("use-recovery").click();
  await page.getByTestId("login-recovery").fill(recovery[0]);
  await page.getByTestId("otp-submit").click();
  // A used code: the user reads that the code is wrong, not that the credentials are (issue 27).
  const wrong = page.getByText("That code is wrong");
  await expect(wrong.first()).toBeVisible();
  await expect(page.getByText("Invalid credentials")).toHaveCount(0);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await snap(page, "login-wrong-code");
  // The right one signs in, and the wrong code's toast goes with the login page (not 5 s later).
  await page.getByTestId("login-recovery").fill(recovery[1]);
  await page.getByTestId("otp-submit").click();
  await expect(page).toHaveURL(/\/(servers|self)$/);
  await expect(wrong).toHaveCount(0, { timeout: 1000 });
});

test("new recovery codes and turning two-factor off each ask for a code", async ({ page, baseURL }) => {
  await onAccountPage(page, baseURL!);
  const secret = await startEnrolment(page, "self-otp-enrol-again");
  await confirmEnrolment(page, secret);
  const first = await page.getByTestId("recovery-code").allInnerTexts();
  await page.getByTestId("codes-done").click();

  await page.getByTestId("otp-regenerate").click();
  const prompt = page.getByTestId("otp-code-prompt");
  await prompt.getByTestId("otp-code-input").fill(currentOtp(secret, Date.now() + 30_000));
  await snap(page, "self-otp-prompt");
  await prompt.getByTestId("otp-code-submit").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const fresh = await page.getByTestId("recovery-code").allInnerTexts();
  expect(fresh.some((code) => first.includes(code))).toBe(false);
  await page.getByTestId("codes-done").click();

  // An old recovery code no longer turns it off; a new one does.
  await page.getByTestId("otp-disable").click();
  await prompt.getByTestId("otp-code-input").fill(first[0]);
  await prompt.getByTestId("otp-code-submit").click();
  await expect(page.getByText("That code is wrong").first()).toBeVisible();
  await prompt.getByTestId("otp-code-input").fill(fresh[0]);
  await prompt.getByTestId("otp-code-submit").click();
  await expect(page.getByTestId("otp-off")).toBeVisible();
});

test("the account page changes the username with the current password and keeps preferences on the account", async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await onAccountPage(page, baseURL!);
  const renamed = `${user.username}x`;
  await page.getByTestId("self-username").fill(renamed);
  await page.getByTestId("account-password").fill(user.password);
  await page.getByTestId("account-save").click();
  await expect(page.getByText("Account details saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("self-username")).toHaveValue(renamed);

  // Preferences: dark theme and plain lists, chosen here ...
  await page.getByLabel("Theme").selectOption("dark");
  await page.getByRole("button", { name: "List", exact: true }).click();
  await expect(page.locator("html")).toHaveClass(/mode-dark/);
  await preferencesSaved(page, ["themeSettings", "listType"]);

  // ... follow the user to another device (a fresh browser context, empty storage).
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto("/auth/login");
  await login(second, user.email, user.password);
  await expect(second).toHaveURL(/\/servers$/);
  await expect(second.locator("html")).toHaveClass(/mode-dark/);
  expect(await second.evaluate(() => localStorage.getItem("listType"))).toBe("list");
  await other.close();
});

test("a personal OAuth client shows its secret once and the secret gets a token", async ({
  page,
  baseURL,
}) => {
  await onAccountPage(page, baseURL!);
  await page.getByTestId("new-client").click();
  await page.getByTestId("create-client").getByLabel("Name").fill("deploy script");
  await page.getByTestId("create-client-submit").click();
  const created = page.getByTestId("client-created");
  const clientId = await created.getByTestId("client-id").inputValue();
  const secret = await created.getByTestId("client-secret").inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{48}$/);
  await page.getByTestId("client-created-done").click();
  await expect(page.getByTestId("self-client")).toContainText("deploy script");
  await expect(page.getByText(secret)).toHaveCount(0);
  const token = await new PanelClient(baseURL!).call("POST", "/oauth2/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
  });
  expect(token.status).toBe(200);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the account page, enrolment, recovery codes and the code step of sign-in fit the screen", async ({
    page,
    baseURL,
  }) => {
    const user = await onAccountPage(page, baseURL!);
    await expect(page.getByTestId("otp-start")).toBeVisible();
    await snap(page, "self-phone");
    await confirmEnrolment(page, await startEnrolment(page, "self-otp-enrol-phone"));
    await page.getByTestId("recovery-codes").scrollIntoViewIfNeeded();
    await snap(page, "self-recovery-codes-phone");
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // In the dark theme too (the codes and the QR code keep their contrast).
    await page.getByLabel("Theme").selectOption("dark");
    await snap(page, "self-recovery-codes-dark-phone");
    await page.getByTestId("codes-done").click();
    await logout(page);
    await login(page, user.email, user.password);
    await expect(page.getByTestId("otp-digit")).toHaveCount(6);
    await snap(page, "login-code-phone");
  });
});
