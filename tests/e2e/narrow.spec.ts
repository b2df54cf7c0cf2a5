import { randomBytes } from "node:crypto";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, screenReady, signIn, snap, unique } from "./helpers.ts";

// Issue 11: every screen usable on a 360×640 phone, left to right and right to left, with nothing
// scrolling sideways. Screenshots land in test-results/screens/narrow-<locale>-<screen>.png.

const WIDTH = 360;

for (const { locale, dir } of [
  { locale: "en-US", dir: "ltr" },
  { locale: "ar-SA", dir: "rtl" },
] as const) {
  test.describe(`at 360×640 (${locale})`, () => {
    test.use({ viewport: { width: WIDTH, height: 640 }, isMobile: true, hasTouch: true, locale });

    test("no screen scrolls sideways", async ({ page, baseURL }) => {
      test.setTimeout(180_000);
      const api = await adminApi(baseURL!);
      const id = randomBytes(4).toString("hex");
      const created = await api.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: unique("narrow-"),
        node: 0,
        users: ["admin"],
      });
      expect(created.status).toBe(200);
      const users = await api.get("/api/users?limit=1");
      const userId = (users.body as { users: { id: number }[] }).users[0]?.id ?? 1;

      const tooWide: string[] = [];
      const check = async (name: string) => {
        await screenReady(page);
        const { scroll, inner } = await page.evaluate(() => ({
          scroll: document.scrollingElement!.scrollWidth,
          inner: window.innerWidth,
        }));
        await snap(page, `narrow-${locale}-${name}`);
        if (scroll > inner) tooWide.push(`${name}: ${scroll} > ${inner}`);
      };
      const visit = async (path: string, name: string) => {
        await page.goto(path);
        await check(name);
      };

      await visit("/auth/login", "login");
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
      await signIn(page);
      await expect(page).toHaveURL(/\/servers$/);
      await check("servers");
      await visit("/servers/new", "server-create");
      for (const section of [
        "console",
        "settings",
        "admin",
        "users",
        "sftp",
        "files",
        "backups",
        "clients",
        "query",
      ]) {
        await visit(`/servers/view/${id}#${section}`, `server-${section}`);
      }
      await visit("/nodes", "nodes");
      await visit("/nodes/new", "node-create");
      await visit("/nodes/view/0", "node-view");
      await visit("/users", "users");
      await visit("/users/new", "user-create");
      await visit(`/users/view/${userId}`, "user-view");
      await visit("/templates", "templates");
      await visit("/templates/new", "template-create");
      await visit("/settings", "settings");
      await visit("/self", "self");
      expect(tooWide).toEqual([]);
    });
  });
}
