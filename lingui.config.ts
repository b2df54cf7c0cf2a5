import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

// Catalogs live in locales/<locale>/messages.po (spec §9 names, e.g. en_US). To add a locale,
// list it here, run `npm run i18n:extract` and translate; the app finds catalogs by glob.
export default defineConfig({
  sourceLocale: "en_US",
  locales: ["en_US"],
  fallbackLocales: { default: "en_US" },
  catalogs: [{ path: "<rootDir>/locales/{locale}/messages", include: ["<rootDir>/src"] }],
  format: formatter({ lineNumbers: false }),
});
