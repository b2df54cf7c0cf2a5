import { registerSW } from "virtual:pwa-register";

// Loaded lazily after first paint: the service worker is never on the login critical path.
export function registerServiceWorker(): void {
  registerSW({ immediate: true });
}
