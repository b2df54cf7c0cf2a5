import { readdirSync } from "node:fs";
import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

// Two catalogs per locale in locales/<locale>/ (spec §9 names, e.g. en_US):
// - shell.po: what the first paint needs (app shell, shared components, offline, sign-in screens),
//   loaded at boot;
// - screens.po: every other screen, and the API errors' texts (src/i18n/errorMessages.ts, two thirds
//   of the login page's catalog before), loaded with the first screen or the first error shown
//   (src/i18n/activate.ts).
// The login page so downloads none of the server, node or template screens' strings.
// A locale exists once its folder does: scripts/i18n/README.md says how a translator adds one
// (complete; `npm run i18n:check` refuses a partial one).
const present = readdirSync(new URL("./locales", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
// Shell code that renders only once the screens' catalog is loaded (App.tsx, activate.ts): its
// strings live in the screens' catalog, not the login page's.
const afterFirstScreen = [
  "<rootDir>/src/i18n/errorMessages.ts",
  "<rootDir>/src/app/blockedNotice.ts",
  "<rootDir>/src/app/Sidebar.tsx",
  "<rootDir>/src/app/TopBar.tsx",
  "<rootDir>/src/app/search",
  "<rootDir>/src/app/HotkeyHelp.tsx",
  "<rootDir>/src/app/hotkeyTable.ts",
  "<rootDir>/src/app/MasterUrlNotice.tsx",
  "<rootDir>/src/components/ConfirmDialog.tsx",
  "<rootDir>/src/components/ErrorDetailsDialog.tsx",
];
export default defineConfig({
  sourceLocale: "en_US",
  locales: ["en_US", ...present.filter((l) => l !== "en_US")],
  fallbackLocales: { default: "en_US" },
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/shell",
      include: [
        "<rootDir>/src/main.tsx",
        "<rootDir>/src/app",
        "<rootDir>/src/api",
        "<rootDir>/src/components",
        "<rootDir>/src/i18n",
        "<rootDir>/src/state",
        "<rootDir>/src/offline",
        "<rootDir>/src/theme",
        "<rootDir>/src/screens/auth",
      ],
      exclude: afterFirstScreen,
    },
    {
      path: "<rootDir>/locales/{locale}/screens",
      include: ["<rootDir>/src/screens", ...afterFirstScreen],
      exclude: ["<rootDir>/src/screens/auth/**"],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
