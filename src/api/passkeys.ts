import type { PasskeyView } from "../../server/contract/api/passkeys";
import type { ScopesAnswer } from "./auth";
import { type CallOptions, del, get, post, put } from "./client";

// Passkeys (issue 39). The WebAuthn browser code is loaded only when a passkey is made or used,
// so the login page's first load does not carry it.

export type { PasskeyView };

type WebAuthnJson = Record<string, unknown>;

const noSessionFlow: CallOptions = { exempt: [401] };
const browserCode = () => import("@simplewebauthn/browser");

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () => typeof window !== "undefined" && "PublicKeyCredential" in window;

export const listPasskeys = () => get<PasskeyView[]>("/api/self/passkeys");
export const renamePasskey = (id: number, name: string) => put<void>(`/api/self/passkeys/${id}`, { name });
export const removePasskey = (id: number) => del<void>(`/api/self/passkeys/${id}`);

/** Asks the browser for a new passkey for this account, and saves it under `name`. */
export async function registerPasskey(name: string): Promise<PasskeyView> {
  const [options, { startRegistration }] = await Promise.all([
    post<WebAuthnJson>("/api/self/passkeys/options"),
    browserCode(),
  ]);
  const response = await startRegistration({ optionsJSON: options as never });
  return post<PasskeyView>("/api/self/passkeys", { name, response });
}

/**
 * Signs in with a passkey: alone, or as the second step of a password sign-in waiting in its
 * cookie (the panel then asks for that account's passkeys only).
 */
export async function signInWithPasskey(): Promise<ScopesAnswer> {
  const [options, { startAuthentication }] = await Promise.all([
    post<WebAuthnJson>("/auth/passkey/options", undefined, noSessionFlow),
    browserCode(),
  ]);
  const response = await startAuthentication({ optionsJSON: options as never });
  return post<ScopesAnswer>("/auth/passkey", { response }, noSessionFlow);
}
