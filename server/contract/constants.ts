/**
 * Constants the panel, the node and the browser must agree on. Browser-safe: no imports
 * (tests/unit/server/contract-walls.test.ts).
 */

/** A server id (spec §3): what the panel accepts in a path, a watch and a definition file. */
export const serverIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The most servers one `/api/live` watch may name (a page of the list holds far fewer). */
export const liveMaxWatchedIds = 200;

/**
 * The close code of a live socket (`/api/live`, a server's console socket) whose rights changed:
 * signing out, a password change, a change of scopes. The browser opens it again at once.
 */
export const closeRightsChanged = 4001;

/**
 * The close code of a socket whose client sent frames faster than it allows (`/api/live` watches,
 * anything at all on a server's push-only console socket): the browser opens it again after its
 * usual wait.
 */
export const closeFrameFlood = 4008;
