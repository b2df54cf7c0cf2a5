import { t } from "@lingui/core/macro";
import { showToast } from "../components/toastStore";

// Loaded lazily after first paint: the service worker (sw/) is never on the login critical path.
// A new version of the app is not swapped in under the user's feet: it waits, and a toast offers
// to reload into it. Plain service worker API (no workbox-window: one request and 2 KiB less on
// the first load).
export function registerServiceWorker(): void {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(
    (registration) => {
      // A first install has no controller yet: it is the first version, nothing to offer.
      const offer = (waiting: ServiceWorker) => {
        if (!navigator.serviceWorker.controller) return;
        showToast(
          "success",
          t`A new version of the panel is ready.`,
          {
            label: t`Reload`,
            run: () => {
              navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), {
                once: true,
              });
              waiting.postMessage({ type: "SKIP_WAITING" });
            },
          },
          { persist: true },
        );
      };
      // Installed while no page was open to say so.
      if (registration.waiting) offer(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const next = registration.installing;
        next?.addEventListener("statechange", () => {
          if (next.state === "installed") offer(next);
        });
      });
    },
    () => {
      // no service worker (private mode, blocked): the panel works online as before
    },
  );
}
