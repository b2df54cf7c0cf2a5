import { expect, test } from "./fixtures.ts";
import { adminApi, snap, tr, visitAsAdmin } from "./helpers.ts";

// The rules for a username are shown under the field from the start (issue 27), on the sign-up
// page and on an administrator's "New user" form, and a name that breaks them is refused in the
// page before anything is sent.

const RULE = "At least {USERNAME_MIN} characters: letters, digits, . _ ~ -";

test("sign-up shows the username rules before anything is typed and refuses a name that breaks them", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  await page.goto("/auth/register");
  const field = page.getByLabel("Username");
  await expect(field).toHaveAccessibleDescription("At least 5 characters: letters, digits, . _ ~ -");
  await field.fill("jürgen müller");
  await page.getByLabel("Email").fill("jm@example.com");
  await page.getByLabel("Password", { exact: true }).fill("a-long-password-1");
  let sent = false;
  page.on("request", (r) => {
    if (r.url().endsWith("/auth/register") && r.method() === "POST") sent = true;
  });
  await page.getByRole("button", { name: "Register" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  expect(sent).toBe(false);
  await snap(page, "username-rules-register");
});

test("an administrator's New user form shows the username rules, in the page's language", async ({
  browser,
  baseURL,
}) => {
  for (const [locale, catalog] of [
    ["en-US", "en_US"],
    ["de-DE", "de_DE"],
  ] as const) {
    const context = await browser.newContext({ baseURL, locale, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await visitAsAdmin(page, "/users/new");
    const form = page.getByTestId("user-create-form");
    await expect(form).toBeVisible();
    const rule = catalog === "en_US" ? RULE : tr(catalog, RULE, "shell");
    await expect(form.getByText(rule.replace("{USERNAME_MIN}", "5"))).toBeVisible();
    await snap(page, `username-rules-new-user-${catalog}`);
    await context.close();
  }
});
