import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { createRoot } from "react-dom/client";
import { Router } from "wouter";
import { setErrorHandler } from "./api/client";
import { loadConfig } from "./api/config";
import { App } from "./app/App";
import { HOME_WHEN_IN, LOGIN_PATH } from "./app/access";
import { handleApiError } from "./app/errorHandler";
import { bindSignedOutHelpKey } from "./app/helpKey";
import { isBlockedHost } from "./app/hostCheck";
import { findRoute } from "./app/routeMatch";
import { routes } from "./app/routes";
import { watchWindowWidth } from "./app/sidebarState";
import { activateLocale, screenStringsReady, startupLocale } from "./i18n/activate";
import { LocaleKeyed } from "./i18n/LocaleKeyed";
import { watchNetwork } from "./offline/network";
import { config } from "./state/config";
import { loggedIn, resumeSession, resumeWhenBackOnline } from "./state/session";
import { applyTheme } from "./state/theme";
import { rememberPaint } from "./theme/paintCache";
import { watchActiveTheme } from "./theme/themeChoice";
import "./styles/base.css";
import "./styles/shell.css";

// Boot: locale and config in parallel, then render; session refresh and the service worker
// follow without delaying the first paint.

const CONFIG_WAIT_MS = 2500;

function afterFirstPaint(run: () => void): void {
  const later = () => ("requestIdleCallback" in window ? requestIdleCallback(run) : setTimeout(run, 200));
  if (document.readyState === "complete") later();
  else addEventListener("load", later, { once: true });
}

async function boot(): Promise<void> {
  const root = document.getElementById("app")!;
  const localeReady = activateLocale(startupLocale());
  // Fetch the current screen's chunk alongside the catalog instead of after the first render.
  // "/" only redirects, so fetch where it will redirect to.
  const first = location.pathname === "/" ? (loggedIn.value ? HOME_WHEN_IN : LOGIN_PATH) : location.pathname;
  void findRoute(routes, first)
    ?.route.screen?.preload()
    .catch(() => undefined);
  if (isBlockedHost(location.host)) {
    const [{ showBlockedNotice }] = await Promise.all([
      import("./app/blockedNotice"),
      localeReady.then(screenStringsReady).catch(() => undefined),
    ]);
    showBlockedNotice(root);
    return;
  }
  setErrorHandler(handleApiError);
  watchNetwork();
  const html = document.documentElement;
  applyTheme(html, () => rememberPaint({ c: html.className, s: html.getAttribute("style") ?? "" }));
  watchWindowWidth();
  const configReady = loadConfig().then((c) => {
    config.value = c;
  });
  // The theme archive follows once the panel has said which themes it has.
  void configReady.then(() => watchActiveTheme());
  // A slow /api/config must not hold the page: render with defaults and update when it lands.
  await Promise.all([
    localeReady,
    Promise.race([configReady, new Promise((r) => setTimeout(r, CONFIG_WAIT_MS))]),
  ]);
  createRoot(root).render(
    <I18nProvider i18n={i18n}>
      <Router>
        <LocaleKeyed>
          <App />
        </LocaleKeyed>
      </Router>
    </I18nProvider>,
  );
  bindSignedOutHelpKey();
  void resumeSession();
  resumeWhenBackOnline();
  if (import.meta.env.PROD && "serviceWorker" in navigator) {
    afterFirstPaint(() => void import("./app/registerSw").then((m) => m.registerServiceWorker()));
  }
}

void boot();
