import { signal } from "@preact/signals-react";
import * as auth from "../api/auth";
import { getSelf, type Self } from "../api/self";
import { backOnline } from "../offline/network";
import { forgetSignedIn, identifyingAccount, noteSignedIn, signedInUser } from "../offline/owner";
import { AUTH_EXPIRES_COOKIE, deleteCookie, readCookie } from "./cookies";
import { stopPreferenceSync, syncPreferences } from "./preferences";
import { clearScopes, storeScopes } from "./scopes";
import { getToken, setToken } from "./token";

// Session per spec §4: logged in when a bearer token is stored or the auth-expiry cookie exists.

export const REAUTH_EVERY_MS = 15 * 60 * 1000;

function detectSession(): boolean {
  return !!getToken() || readCookie(AUTH_EXPIRES_COOKIE) !== undefined;
}

export const loggedIn = signal(typeof document === "undefined" ? false : detectSession());
export const user = signal<Self | null>(null);
/**
 * The panel refused a call with ErrTwoFactorRequired: this account must set up two-factor
 * sign-in before anything else (app/errorHandler.ts sends it to its account page).
 */
export const twoFactorRequired = signal(false);

let reauthTimer: ReturnType<typeof setInterval> | undefined;

export async function loadUser(): Promise<void> {
  try {
    const self = await getSelf();
    user.value = self;
    await noteSignedIn(self.id);
  } catch {
    // the error handler already reported it (a 401 ends the session)
  }
}

async function reauthNow(): Promise<boolean> {
  try {
    const answer = await auth.reauth();
    storeScopes(answer?.scopes);
    return true;
  } catch {
    // handled globally; a 401 runs the session-expired flow
    return false;
  }
}

function startReauthLoop(): void {
  clearInterval(reauthTimer);
  reauthTimer = setInterval(reauthNow, REAUTH_EVERY_MS);
}

/** At boot: refresh an existing session and load the current user. */
export async function resumeSession(): Promise<void> {
  if (!loggedIn.value) return;
  // Signed in but the account not noted yet (the page left right after sign-in): kept lists wait for it.
  if (signedInUser() === undefined) identifyingAccount();
  startReauthLoop();
  if ((await reauthNow()) && loggedIn.value) await Promise.all([loadUser(), syncPreferences()]);
}

/** Booted offline: the session is refreshed and the account read once the panel is back in reach. */
export function resumeWhenBackOnline(): void {
  const at = backOnline.value;
  backOnline.subscribe((n) => {
    if (n !== at && loggedIn.value && !user.value) void resumeSession();
  });
}

/** After login, otp or register answered with scopes. */
export function beginSession(scopes: string[] | undefined): void {
  storeScopes(scopes);
  loggedIn.value = true;
  startReauthLoop();
  // A sign-in starts from a wiped device: nothing of an earlier account (one that never logged
  // out) stays, and nothing is kept until this account is known.
  void forgetSignedIn(true).then(loadUser);
  void syncPreferences();
}

/** Log out on the server (best effort) and forget everything about the session locally. */
export async function endSession(): Promise<void> {
  clearInterval(reauthTimer);
  reauthTimer = undefined;
  stopPreferenceSync();
  try {
    await auth.logout();
  } catch {
    // already logged out or offline: local state is what matters
  }
  clearScopes();
  twoFactorRequired.value = false;
  deleteCookie(AUTH_EXPIRES_COOKIE);
  setToken(null);
  user.value = null;
  loggedIn.value = false;
  await forgetSignedIn();
}
