import { registerSW } from "virtual:pwa-register";
import { t } from "@lingui/core/macro";
import { showToast } from "../components/toastStore";

// Loaded lazily after first paint: the service worker is never on the login critical path.
// A new version of the app is not swapped in under the user's feet: it waits, and a toast
// offers to reload into it.
export function registerServiceWorker(): void {
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      showToast(
        "success",
        t`A new version of the panel is ready.`,
        {
          label: t`Reload`,
          run: () => {
            // The library reloads only a page that had a worker when it loaded; a page from the
            // first visit must reload too, so the reload is ours (and onNeedReload below stops
            // the library's second one).
            navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), {
              once: true,
            });
            void update(true);
          },
        },
        { persist: true },
      );
    },
    onNeedReload() {},
  });
}
