import { expect, test } from "./fixtures.ts";
import { login, screenReady } from "./helpers.ts";

test("an expired session goes to login and comes back to the page the user was on", async ({
  page,
  context,
}) => {
  await page.goto("/auth/login");
  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/settings#email");
  await expect(page).toHaveURL(/\/settings#email$/);
  await screenReady(page);

  // The server forgets the session; the browser still believes it is signed in.
  await context.clearCookies({ name: "outpost_auth" });
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText(/session.*(timed out|expired)/i).first()).toBeVisible();

  await login(page);
  await expect(page).toHaveURL(/\/settings#email$/);
});

test("a guarded page visited while signed out is reached after login", async ({ page }) => {
  await page.goto("/nodes?view=list");
  await expect(page).toHaveURL(/\/auth\/login$/);
  await login(page);
  await expect(page).toHaveURL(/\/nodes\?view=list$/);
});
