import { t } from "@lingui/core/macro";
import { Workbox } from "workbox-window";
import { showToast } from "../components/toastStore";

// Loaded lazily after first paint, with workbox-window, in a chunk of its own (vite.config.ts): the
// service worker (sw/) is never on the login page's first load. A new version of the app is not
// swapped in under the user's feet: it waits, and a toast offers to reload into it.
export function registerServiceWorker(): void {
  const wb = new Workbox("/sw.js", { scope: "/" });
  let offered = false;
  // Also a worker that was waiting before this page loaded, and one found by another tab's check.
  wb.addEventListener("waiting", () => {
    // A first install has no controller yet: it is the first version, nothing to offer.
    if (offered || !navigator.serviceWorker.controller) return;
    offered = true;
    showToast(
      "success",
      t`A new version of the panel is ready.`,
      {
        label: t`Reload`,
        run: () => {
          wb.addEventListener("controlling", () => location.reload());
          wb.messageSkipWaiting();
        },
      },
      { persist: true },
    );
  });
  wb.register({ immediate: true }).catch(() => {
    // no service worker (private mode, blocked): the panel works online as before
  });
}
