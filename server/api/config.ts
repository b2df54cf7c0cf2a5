import fs from "node:fs/promises";
import path from "node:path";
import { PanelConfigAnswer } from "../wire/settings.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** GET /api/config: what the browser needs before sign-in (reference §10.4). */
export function configRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const themeDir = path.join(services.config.webDir, "theme");

  api.get(
    "/api/config",
    { config: { access: "public" }, schema: { response: { 200: PanelConfigAnswer } } },
    async () => {
      const values = await services.settings.getMany([
        "panel.settings.companyName",
        "panel.settings.defaultTheme",
        "panel.settings.themeSettings",
        "panel.registrationEnabled",
      ] as const);
      return {
        themes: {
          active: String(values["panel.settings.defaultTheme"]),
          settings: String(values["panel.settings.themeSettings"]),
          available: await availableThemes(themeDir),
        },
        branding: { name: String(values["panel.settings.companyName"]) },
        registrationEnabled: values["panel.registrationEnabled"] === true,
      };
    },
  );
}

/** Theme archives shipped with the web app (`theme/<name>.tar`); the built-in theme is always there. */
async function availableThemes(dir: string): Promise<string[]> {
  const names = new Set(["Outpost"]);
  try {
    for (const file of await fs.readdir(dir)) if (file.endsWith(".tar")) names.add(file.slice(0, -4));
  } catch {
    // No theme folder: the built-in theme only.
  }
  return [...names].sort();
}
