import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { lazy, Suspense, useEffect } from "react";
import { useLocation } from "wouter";
import { pendingConfirm } from "../components/confirmStore";
import { errorDetails } from "../components/errorDetailsStore";
import { Toasts } from "../components/Toasts";
import { screenStringsReady } from "../i18n/activate";
import { OfflineBanner } from "../offline/OfflineBanner";
import { config } from "../state/config";
import { loggedIn } from "../state/session";
import { helpOpen } from "./helpOpen";
import { RouteView } from "./RouteView";
import { findRoute } from "./routeMatch";
import { routes } from "./routes";
import { sidebarMini, sidebarOpen, wideWindow } from "./sidebarState";
import { TopBarFrame } from "./TopBarFrame";

// Loaded when first needed, so the login page's first load stays small: the signed-in shell
// (top bar, sidebar, hotkeys) with the first signed-in screen, the dialogs when one opens. Their
// words are in the screens' catalog (lingui.config.ts), which comes along before they render.
const withScreenStrings =
  <T,>(load: () => Promise<T>) =>
  () =>
    Promise.all([load(), screenStringsReady()]).then(([m]) => m);
const SignedInShell = lazy(withScreenStrings(() => import("./SignedInShell")));
const MasterUrlNotice = lazy(withScreenStrings(() => import("./MasterUrlNotice")));
const HotkeyHelp = lazy(
  withScreenStrings(() => import("./HotkeyHelp").then((m) => ({ default: m.HotkeyHelp }))),
);
const ConfirmDialog = lazy(
  withScreenStrings(() => import("../components/ConfirmDialog").then((m) => ({ default: m.ConfirmDialog }))),
);
const ErrorDetailsDialog = lazy(
  withScreenStrings(() =>
    import("../components/ErrorDetailsDialog").then((m) => ({ default: m.ErrorDetailsDialog })),
  ),
);

export function App() {
  // Subscribing here re-renders the whole shell when the locale changes (plain `t` calls below
  // read the global i18n and would not notice otherwise).
  useLingui();
  const [path] = useLocation();
  const brand = config.value.branding.name;
  const route = findRoute(routes, path)?.route;
  const signedIn = loggedIn.value;
  // noAuth routes (login, register, invite) hide the sidebar; so does being signed out.
  const withSidebar = signedIn && route?.access !== "noAuth";
  const open = withSidebar && sidebarOpen.value;
  const docked = open && wideWindow.value;
  const mini = sidebarMini.value;

  useEffect(() => {
    document.title = brand;
  }, [brand]);

  const shellClass = [
    "shell",
    withSidebar ? "with-sidebar" : "",
    open ? "sidebar-open" : "",
    docked ? (mini ? "docked-mini" : "docked") : "",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className={shellClass}>
      <a className="skip-link" href="#main">
        {t`Skip to content`}
      </a>
      {signedIn ? (
        <Suspense fallback={<TopBarFrame />}>
          <SignedInShell withSidebar={withSidebar} />
        </Suspense>
      ) : (
        <TopBarFrame />
      )}
      <main id="main" className={route?.access === "noAuth" ? "main main-auth" : "main"}>
        <OfflineBanner />
        {signedIn && (
          <Suspense fallback={null}>
            <MasterUrlNotice />
          </Suspense>
        )}
        <RouteView />
      </main>
      <Toasts />
      <Suspense fallback={null}>{helpOpen.value && <HotkeyHelp />}</Suspense>
      <Suspense fallback={null}>{pendingConfirm.value && <ConfirmDialog />}</Suspense>
      <Suspense fallback={null}>{errorDetails.value && <ErrorDetailsDialog />}</Suspense>
    </div>
  );
}
