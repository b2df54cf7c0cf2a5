import { OWNER_KEY, withLastKnownStore } from "./storage";

// Who the last-known data belongs to (issue 11). The account is read from the network at boot,
// which fails offline; the cache key must be known without it, so the signed-in user's id is kept
// in localStorage from sign-in to logout (and in IndexedDB for the service worker). No storage
// library here: the login page imports this.

const OWNER_LOCAL = "outpost.signedInUser";

export function signedInUser(): number | undefined {
  try {
    const raw = localStorage.getItem(OWNER_LOCAL);
    const id = raw === null ? Number.NaN : Number(raw);
    return Number.isInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function setLocal(id: number | undefined): void {
  try {
    if (id === undefined) localStorage.removeItem(OWNER_LOCAL);
    else localStorage.setItem(OWNER_LOCAL, String(id));
  } catch {
    // no storage: nothing is remembered either
  }
}

// Between a sign-in and the answer saying which account it is, a list answered meanwhile waits
// for the owner instead of being dropped (or kept under the previous account).
let identifying = false;
let waiting: ((id: number | undefined) => void)[] = [];

function settle(id: number | undefined): void {
  identifying = false;
  for (const resolve of waiting) resolve(id);
  waiting = [];
}

/** A session whose account is not known yet: what is to be kept waits for noteSignedIn. */
export function identifyingAccount(): void {
  identifying = true;
}

/** Who owns what is kept now; right after a sign-in, once the account is known. */
export function owner(): Promise<number | undefined> {
  if (!identifying) return Promise.resolve(signedInUser());
  return new Promise((resolve) => waiting.push(resolve));
}

/** The account is known: another account's data on this device is wiped first. */
export async function noteSignedIn(id: number): Promise<void> {
  const changed = signedInUser() !== id;
  setLocal(id);
  await withLastKnownStore((store) => {
    if (changed) store.clear();
    store.put(id, OWNER_KEY);
  });
  settle(id);
}

/**
 * Logout (and the start of a sign-in, `identifying`): nothing more is kept under the old account,
 * and what was kept is wiped.
 */
export async function forgetSignedIn(identifyingNext = false): Promise<void> {
  setLocal(undefined);
  if (identifyingNext) identifyingAccount();
  else settle(undefined);
  await withLastKnownStore((store) => store.clear());
}
