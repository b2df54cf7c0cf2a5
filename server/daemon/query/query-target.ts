import type { Template, VariableValue } from "../../templates/index.ts";

/** Where and how to ask one game server for its player count. */
export interface QueryTarget {
  /** A gamedig type name, e.g. "minecraft" or "openttd". */
  type: string;
  host: string;
  port: number;
  /**
   * True when the port is the template's own query port: ask exactly there.
   * When it is the game port, gamedig may also try the type's usual query
   * port offset (Steam games answer on game port + 1, for instance).
   */
  queryPort: boolean;
}

/** The query type a definition names, or undefined when it names none. */
export function queryTypeOf(definition: Template): string | undefined {
  const type = definition.query?.type?.trim();
  return type ? type : undefined;
}

/**
 * The node asks its own game servers, so an address meaning "every
 * interface" (or none, or a token left unreplaced) is asked on loopback.
 */
export function queryHost(ip: VariableValue | undefined): string {
  const text = typeof ip === "string" ? ip.trim() : "";
  if (text === "" || text === "0.0.0.0" || text === "::" || text === "[::]" || text.includes("{")) {
    return "127.0.0.1";
  }
  return text.replace(/^\[(.*)\]$/, "$1");
}

function portNumber(value: VariableValue | undefined): number | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * Templates name a separate query port as a variable: `queryport` (ARK),
 * `query_port` (Squad) in the PufferPanel template repository, `queryPort`
 * in camel case. Any spelling of those, case and underscores aside, counts.
 */
export function isQueryPortName(name: string): boolean {
  return name.toLowerCase().replace(/[_-]/g, "") === "queryport";
}

/**
 * What to ask for a definition: its query type, the `ip` variable's host and
 * the query port variable if there is one, else the `port` variable.
 * Undefined when there is no type or no usable port (the GET answers 204).
 */
export function queryTarget(definition: Template): QueryTarget | undefined {
  const type = queryTypeOf(definition);
  if (!type) return undefined;
  const data = definition.data ?? {};
  const host = queryHost(data.ip?.value);
  for (const [name, variable] of Object.entries(data)) {
    if (!isQueryPortName(name)) continue;
    const port = portNumber(variable.value);
    if (port) return { type, host, port, queryPort: true };
  }
  const port = portNumber(data.port?.value);
  return port ? { type, host, port, queryPort: false } : undefined;
}
