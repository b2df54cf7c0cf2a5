import { createStore, get, set } from "idb-keyval";
import { LAST_KNOWN_AT_HEADER, LAST_KNOWN_DB, LAST_KNOWN_STORE, OWNER_KEY } from "../src/offline/storage";

// Network-first for the API lists (issue 11): each answer of a kept list is stored in IndexedDB
// under the signed-in account; when the network fails, the last one is served instead, marked with
// its age (the page then knows it is offline and shows "last known at"). Only the paths below are
// ever kept: never secrets, file contents, downloads, sockets or sign-in answers.

const KEPT: readonly RegExp[] = [
  /^\/api\/servers$/,
  /^\/api\/nodes$/,
  /^\/api\/users$/,
  /^\/api\/templates$/,
  // one repository's template listing (not a template itself)
  /^\/api\/templates\/[^/]+$/,
];

// Searches are not lists: offline they fail rather than show an old answer as a new one.
const SEARCHES = ["name", "username", "email"];

export const isKeptList = (url: URL): boolean =>
  KEPT.some((re) => re.test(url.pathname)) && !SEARCHES.some((q) => url.searchParams.get(q));

interface Kept {
  at: number;
  type: string;
  body: string;
}

let store: ReturnType<typeof createStore> | undefined;
const db = () => {
  store ??= createStore(LAST_KNOWN_DB, LAST_KNOWN_STORE);
  return store;
};

/** The page writes who is signed in (src/offline/owner.ts); nobody signed in: nothing is kept. */
const owner = () => get<number>(OWNER_KEY, db()).catch(() => undefined);
const keyOf = (who: number, url: URL) => `answer.${who}.${url.pathname}${url.search}`;

/** `stayAlive`: the fetch event's waitUntil, so the worker is not stopped before the answer is kept. */
export async function networkFirst(
  request: Request,
  stayAlive?: (done: Promise<void>) => void,
): Promise<Response> {
  const url = new URL(request.url);
  try {
    const answer = await fetch(request);
    if (answer.status === 200 && (answer.headers.get("content-type") ?? "").includes("json")) {
      const kept = keep(url, answer.clone());
      stayAlive?.(kept);
    }
    return answer;
  } catch (offline) {
    const who = await owner();
    const kept =
      who === undefined ? undefined : await get<Kept>(keyOf(who, url), db()).catch(() => undefined);
    if (!kept) throw offline;
    return new Response(kept.body, {
      status: 200,
      headers: { "content-type": kept.type, [LAST_KNOWN_AT_HEADER]: String(kept.at) },
    });
  }
}

async function keep(url: URL, answer: Response): Promise<void> {
  try {
    const body = await answer.text();
    // Read after the answer: a logout meanwhile wiped the owner, and the answer is dropped.
    const who = await owner();
    if (who === undefined) return;
    const kept: Kept = {
      at: Date.now(),
      type: answer.headers.get("content-type") ?? "application/json",
      body,
    };
    await set(keyOf(who, url), kept, db());
  } catch {
    // storage full or blocked: the next offline visit has nothing for this list
  }
}
