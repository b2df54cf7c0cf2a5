import type { PanelConfigAnswer } from "../../server/contract/api/settings";
import { getPublic } from "./client";

export type { PanelConfigAnswer };

export const DEFAULT_CONFIG: PanelConfigAnswer = {
  themes: { active: "Outpost", settings: "{}", available: ["Outpost"] },
  branding: { name: "Outpost" },
  registrationEnabled: true,
};

/** Merge an answer over the defaults so a partial or failed answer still works (spec §4). */
export function normalizeConfig(raw: unknown): PanelConfigAnswer {
  const c = (raw && typeof raw === "object" ? raw : {}) as Partial<PanelConfigAnswer>;
  const themes = { ...DEFAULT_CONFIG.themes, ...(c.themes ?? {}) };
  return {
    themes: {
      ...themes,
      available: Array.isArray(themes.available) ? themes.available : DEFAULT_CONFIG.themes.available,
    },
    branding: { name: c.branding?.name || DEFAULT_CONFIG.branding.name },
    registrationEnabled: typeof c.registrationEnabled === "boolean" ? c.registrationEnabled : true,
    ...(typeof c.vapidPublicKey === "string" ? { vapidPublicKey: c.vapidPublicKey } : {}),
    ...(Array.isArray(c.oidcProviders) ? { oidcProviders: c.oidcProviders } : {}),
  };
}

/** The last answer, so a page opened offline keeps the company name and theme (public data). */
const KEPT_CONFIG = "outpost.config";

/** Read at boot, before the API client's HTTP library has loaded: a public answer (getPublic). */
export async function loadConfig(): Promise<PanelConfigAnswer> {
  try {
    const answer = normalizeConfig(await getPublic("/api/config"));
    try {
      localStorage[KEPT_CONFIG] = JSON.stringify(answer);
    } catch {
      // storage blocked or full: the defaults serve offline
    }
    return answer;
  } catch {
    try {
      // Nothing kept (JSON.parse(undefined) throws) or storage blocked: the defaults.
      return normalizeConfig(JSON.parse(localStorage[KEPT_CONFIG]));
    } catch {
      return DEFAULT_CONFIG;
    }
  }
}
