import { type Scope, serverScopes } from "../contract/scopes.ts";

/**
 * The one rule that evaluates the scope catalogue (server/contract/scopes.ts, reference §2.2): a
 * scope is held when listed, or when `admin` is listed, or — for a server scope — when
 * `server.admin` is listed.
 */
const serverScopeSet = new Set<string>(serverScopes);

export function isServerScope(scope: string): boolean {
  return serverScopeSet.has(scope);
}

export function holdsScope(held: readonly string[], scope: string): boolean {
  if (held.includes(scope) || held.includes("admin")) return true;
  return isServerScope(scope) && held.includes("server.admin");
}

/** Scopes are stored comma-joined (reference §2.2). */
export function parseScopes(stored: string): string[] {
  return stored ? stored.split(",").filter(Boolean) : [];
}

export function joinScopes(scopes: readonly string[]): string {
  return [...new Set(scopes)].join(",");
}

/** What a user who registers gets; enough to sign in and manage their own account. */
export const registeredUserScopes: Scope[] = ["login", "self.edit", "self.clients"];
