import type { Variable } from "./types.ts";

/** `port`, or a name ending in port/Port (queryPort, rconport): a port by its name alone. */
const portName = /(port|Port)$/;

/**
 * A template's port variables (issue 36), the primary first: integer variables named `port` or
 * ending in `port`/`Port`, and any variable marked `"port": true`; `"port": false` keeps a
 * variable with such a name out. On a node with allocations each gets one of its pool; the
 * primary (`port` when there is one, else the first) is the server's address.
 */
export function portVariables(data: Record<string, Partial<Variable>> | undefined): string[] {
  const names = Object.entries(data ?? {})
    .filter(([name, variable]) =>
      variable.port === undefined
        ? variable.type === "integer" && portName.test(name)
        : variable.port === true,
    )
    .map(([name]) => name);
  const primary = names.indexOf("port");
  if (primary > 0) names.unshift(...names.splice(primary, 1));
  return names;
}
