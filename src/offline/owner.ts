// Who the last-known lists belong to (issue 11). The account is read from the network at boot,
// which fails offline; the cache key must be known without it, so the signed-in user's id is kept
// in localStorage from sign-in to logout. No storage library here: the login page imports this.

const OWNER_KEY = "outpost.signedInUser";

export function signedInUser(): number | undefined {
  try {
    const raw = localStorage.getItem(OWNER_KEY);
    const id = raw === null ? Number.NaN : Number(raw);
    return Number.isInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

const wipeCaches = () =>
  import("./lastKnown").then(
    (m) => m.wipeLastKnown(),
    () => undefined,
  );

/** The account is known: another account's lists on this device are wiped first. */
export async function noteSignedIn(id: number): Promise<void> {
  const before = signedInUser();
  try {
    localStorage.setItem(OWNER_KEY, String(id));
  } catch {
    // no storage: nothing is remembered either
  }
  if (before !== id) await wipeCaches();
}

/** Logout: the lists stop being remembered at once, then what was kept is wiped. */
export async function forgetSignedIn(): Promise<void> {
  try {
    localStorage.removeItem(OWNER_KEY);
  } catch {
    // nothing stored
  }
  await wipeCaches();
}
