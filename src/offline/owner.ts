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

/** The account is known: another account's data on this device is wiped first. */
export async function noteSignedIn(id: number): Promise<void> {
  const changed = signedInUser() !== id;
  setLocal(id);
  await withLastKnownStore((store) => {
    if (changed) store.clear();
    store.put(id, OWNER_KEY);
  });
}

/** Logout: nothing more is kept from now on, and what was kept is wiped. */
export async function forgetSignedIn(): Promise<void> {
  setLocal(undefined);
  await withLastKnownStore((store) => store.clear());
}
