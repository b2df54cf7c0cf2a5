import { config } from "../../state/config";

/**
 * Whether this browser can take the panel's Web Push alerts, and if not, why: each reason has
 * its own way out (open the panel over HTTPS, add it to the Home Screen, reload once, allow
 * notifications in the site's settings, or use e-mail or a webhook).
 */
export type PushSupport = "ready" | "insecure" | "homeScreen" | "noPush" | "noWorker" | "noKey" | "denied";

/** This browser's push registration, when it has a service worker and the Push API. */
export async function pushRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  return navigator.serviceWorker.getRegistration();
}

/** An iPhone or iPad not running the panel from the Home Screen, where Safari has no Web Push. */
const iosInBrowser = () =>
  (/iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1)) &&
  !window.matchMedia("(display-mode: standalone)").matches;

export async function pushSupport(): Promise<PushSupport> {
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
    return iosInBrowser() ? "homeScreen" : "noPush";
  if (!config.value.vapidPublicKey) return "noKey";
  if (!(await navigator.serviceWorker.getRegistration())) return "noWorker";
  return Notification.permission === "denied" ? "denied" : "ready";
}
