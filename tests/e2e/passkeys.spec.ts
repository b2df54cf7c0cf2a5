import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap, unique } from "./helpers.ts";

// Passkeys in Chromium (issue 39), made and used by its virtual authenticator (CDP WebAuthn). A
// passkey's relying party is a host name, never an IP address: the page is opened at localhost.
test("a passkey made on the account page signs in alone, and after the password", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const username = unique("passkey");
  const user = { username, email: `${username}@example.com`, password: "passkey-user-password-1" };
  const made = await api.post("/api/users", user);
  expect(made.status, made.text).toBe(200);
  const site = baseURL!.replace("127.0.0.1", "localhost");

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${site}/self`);
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/self$/);
  await page.getByTestId("passkey-name").fill("Virtual key");
  await page.getByTestId("add-passkey").click();
  const entry = page.getByTestId("passkey").filter({ hasText: "Virtual key" });
  await expect(entry).toBeVisible();
  await entry.getByTestId("rename-passkey").click();
  await page.getByTestId("passkey-name-edit").fill("Desk key");
  await page.getByTestId("passkey-name-save").click();
  await expect(page.getByTestId("passkey").filter({ hasText: "Desk key" })).toBeVisible();
  await snap(page, "passkeys-desktop");

  // Signed out, the passkey alone signs in: no e-mail, no password.
  await page.context().clearCookies();
  await page.goto(`${site}/auth/login`);
  await page.getByTestId("login-passkey").click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  expect((await page.request.get(`${site}/api/self`)).status()).toBe(200);
  expect((await (await page.request.get(`${site}/api/self`)).json()).email).toBe(user.email);

  // After the password, the passkey is the second step.
  await page.context().clearCookies();
  await page.goto(`${site}/auth/login`);
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, user.email, user.password);
  await expect(page.getByText("Confirm with one of your passkeys.")).toBeVisible();
  await snap(page, "passkey-second-step-phone");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId("login-passkey").click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  expect((await (await page.request.get(`${site}/api/self`)).json()).email).toBe(user.email);
});
