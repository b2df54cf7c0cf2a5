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

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

// The first install takes over the open page at once, so its lists are kept from the first visit.
clientsClaim();
