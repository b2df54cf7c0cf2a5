import { hasScope } from "../../state/scopes";

/**
 * Whether the signed-in user holds a server scope on one server (spec §6): in that server's
 * scopes, or server.admin there, or globally (admin, server.admin, or the scope itself in the
 * global list, which the panel applies to every server).
 */
export function holdsOnServer(serverScopes: readonly string[] | undefined, scope: string): boolean {
  if (hasScope(scope) || hasScope("server.admin")) return true;
  return !!serverScopes && (serverScopes.includes(scope) || serverScopes.includes("server.admin"));
}

/** Scope test bound to one server's scopes. */
export type ServerCan = (scope: string) => boolean;

export const serverCan =
  (serverScopes: readonly string[] | undefined): ServerCan =>
  (scope) =>
    holdsOnServer(serverScopes, scope);

/** The address players use: ip and port, or the node's public host when the ip is empty or a wildcard. */
export function serverAddress(server: { ip?: string; port?: number; node: { publicHost: string } }): string {
  const ip = server.ip?.trim();
  const host = !ip || ip === "0.0.0.0" || ip === "::" || ip === "{ip}" ? server.node.publicHost : ip;
  if (!host) return "";
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return server.port ? `${shown}:${server.port}` : shown;
}
