import type { Api, RouteContext } from "./types.ts";

/** The brand colour of the built-in theme: the installed app's title bar. */
const themeColour = "#07a7e3";

/**
 * GET /manifest.webmanifest: what a browser needs to install the panel as an
 * app. Made per request rather than at build time, so the installed app
 * carries the company name an administrator set (panel.settings.companyName).
 */
export function webManifestRoutes(app: Api, { services }: RouteContext): void {
  app.get("/manifest.webmanifest", async (_request, reply) => {
    const name = String(await services.settings.get("panel.settings.companyName")) || "Outpost";
    return reply
      .type("application/manifest+json; charset=utf-8")
      .header("Cache-Control", "no-cache")
      .send({
        name,
        short_name: name.length > 12 ? name.slice(0, 12).trimEnd() : name,
        description: "Run game servers from the browser",
        id: "/",
        start_url: "/servers",
        scope: "/",
        display: "standalone",
        theme_color: themeColour,
        background_color: "#ffffff",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
        ],
      });
  });
}
