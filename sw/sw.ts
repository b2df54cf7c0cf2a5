/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { isKeptList, networkFirst } from "./keptAnswers";

// Outpost's service worker, at the site root (built by vite-plugin-pwa's injectManifest).
// - The app shell (every built asset) is precached: the panel opens without a network.
// - Page loads are the SPA's, except server endpoints and downloads.
// - The API lists are network-first with their last answer in IndexedDB (./keptAnswers);
//   every other request (API, sockets, files, sign-in) goes to the network untouched.
// - A new version waits until the page asks for it (the app's "Reload" toast sends SKIP_WAITING).

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    denylist: [/^\/api\//, /^\/oauth2\//, /^\/daemon\//, /^\/theme\//],
  }),
);

registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === self.location.origin && isKeptList(url),
  ({ request, event }) =>
    networkFirst(request, (done) => (event as ExtendableEvent | undefined)?.waitUntil(done)),
);

// Alerts (issue 24): a Web Push message is the panel's JSON {title, body, url, tag}; it is shown
// as a notification, and tapping it opens (or focuses) the page it concerns.
self.addEventListener("push", (event) => {
  let alert: { title?: string; body?: string; url?: string; tag?: string } = {};
  try {
    alert = event.data?.json() ?? {};
  } catch {
    alert = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || "Outpost", {
      body: alert.body ?? "",
      tag: alert.tag,
      icon: "/icon-192.png",
      data: { url: sameOriginPath(alert.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opened = openPage((event.notification.data as { url?: string } | null)?.url ?? "/");
  // Only a real tap may keep the worker alive for it (a dispatched event may not extend its life).
  if (event.isTrusted) event.waitUntil(opened);
});

/**
 * Only a page of this panel is opened, whatever a message says: its path, on this origin (the
 * panel's configured address may name another host than the one this app was installed from).
 */
function sameOriginPath(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? "/", self.location.origin);
    return parsed.protocol === "http:" || parsed.protocol === "https:"
      ? parsed.pathname + parsed.search
      : "/";
  } catch {
    return "/";
  }
}

/** The app's window (one already on the page, else any) is brought forward and sent there; else a new one. */
async function openPage(path: string): Promise<void> {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === url) ?? windows[0];
  if (!open) {
    await self.clients.openWindow(url);
    return;
  }
  // Focus is allowed only while a tap is being handled.
  await open.focus().catch(() => undefined);
  if (open.url !== url) await open.navigate(url).catch(() => self.clients.openWindow(url));
}

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

// The first install takes over the open page at once, so its lists are kept from the first visit.
clientsClaim();
