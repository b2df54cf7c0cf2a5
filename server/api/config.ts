import { PanelConfigAnswer } from "../contract/api/settings.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** GET /api/config: what the browser needs before sign-in (reference §10.4). */
export function configRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);

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
          available: await services.themes.list(),
        },
        branding: { name: String(values["panel.settings.companyName"]) },
        registrationEnabled: values["panel.registrationEnabled"] === true,
        vapidPublicKey: await services.vapid.publicKey(),
        oidcProviders: await services.oidcProviders.buttons(),
      };
    },
  );
}
