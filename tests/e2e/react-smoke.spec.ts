import { expect, test } from "./fixtures.ts";
import { login, snap } from "./helpers.ts";

test("the real-React build signs in and navigates", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/login$/);
  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  // The global hotkeys come with the signed-in shell (sidebar, top bar), loaded after sign-in.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.locator("body").press("g");
  await page.locator("body").press("a");
  await expect(page).toHaveURL(/\/self$/);
  // The account page's sections render under real React too (signals read in components).
  await expect(page.getByTestId("self-username")).not.toHaveValue("");
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await snap(page, "react-build-self");
});
