import { computed, signal } from "@preact/signals-react";
import { deleteCookie, readCookie, SCOPES_COOKIE, writeCookie } from "./cookies";

/** A user holds a scope if it is in their list or they hold admin (spec §6). */
export function hasScopeIn(scopes: readonly string[], scope: string): boolean {
  return scopes.includes(scope) || scopes.includes("admin");
}

export function parseScopes(raw: string | undefined): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

export const scopes = signal<string[]>(
  typeof document === "undefined" ? [] : parseScopes(readCookie(SCOPES_COOKIE)),
);
export const isAdmin = computed(() => scopes.value.includes("admin"));

export function hasScope(scope: string): boolean {
  return hasScopeIn(scopes.value, scope);
}

export function storeScopes(list: string[] | undefined): void {
  const next = list ?? [];
  writeCookie(SCOPES_COOKIE, JSON.stringify(next));
  scopes.value = next;
}

export function clearScopes(): void {
  deleteCookie(SCOPES_COOKIE);
  scopes.value = [];
}
