import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { useEffect } from "react";
import { useLocation } from "wouter";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorDetailsDialog } from "../components/ErrorDetailsDialog";
import { Toasts } from "../components/Toasts";
import { OfflineBanner } from "../offline/OfflineBanner";
import { config } from "../state/config";
import { loggedIn } from "../state/session";
import { HotkeyHelp } from "./HotkeyHelp";
import { RouteView } from "./RouteView";
import { findRoute } from "./routeMatch";
import { routes } from "./routes";
import { Sidebar } from "./Sidebar";
import { closeIfNarrow, sidebarMini, sidebarOpen, wideWindow } from "./sidebarState";
import { TopBar } from "./TopBar";

export function App() {
  // Subscribing here re-renders the whole shell when the locale changes (plain `t` calls below
  // read the global i18n and would not notice otherwise).
  useLingui();
  const [path] = useLocation();
  const brand = config.value.branding.name;
  const route = findRoute(routes, path)?.route;
  // noAuth routes (login, register, invite) hide the sidebar; so does being signed out.
  const withSidebar = loggedIn.value && route?.access !== "noAuth";
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
      <TopBar withSidebar={withSidebar} />
      {withSidebar && <Sidebar />}
      {/* A click in the main area closes an overlaying sidebar on a narrow window (spec §2.2). */}
      {open && !wideWindow.value && (
        // Pointer-only scrim; keyboard users close the sidebar with the menu button or Escape.
        <div className="scrim" aria-hidden="true" onClick={closeIfNarrow} />
      )}
      <main id="main" className={route?.access === "noAuth" ? "main main-auth" : "main"}>
        <OfflineBanner />
        <RouteView />
      </main>
      <Toasts />
      <HotkeyHelp />
      <ConfirmDialog />
      <ErrorDetailsDialog />
    </div>
  );
}
