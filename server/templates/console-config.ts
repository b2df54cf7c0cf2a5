import { assignDefined, isAbsent, readObject, readString } from "./fields.ts";
import { childPath, isObject, jsonType, type Problems } from "./problems.ts";
import { substituteTokens, type UserValueNames } from "./substitute.ts";
import type { TokenValues } from "./tokens.ts";
import type { ConsoleConfig, OutputConfig } from "./types.ts";

const inputTypes = ["stdin", "telnet", "rcon", "rconws"] as const;
const outputTypes = ["stdout", "telnet", "rcon", "rconws", "file"] as const;

/** Console input; no type means plain stdin, as in the Go panel. */
export function parseConsoleConfig(
  raw: unknown,
  path: string,
  problems: Problems,
): ConsoleConfig | undefined {
  return parseConnection(raw, path, problems, inputTypes, "stdin");
}

export function parseOutputConfig(raw: unknown, path: string, problems: Problems): OutputConfig | undefined {
  const config = parseConnection(raw, path, problems, outputTypes, "stdout");
  if (config && isObject(raw)) {
    const file = readString(raw.file, childPath(path, "file"), problems);
    if (file !== undefined) return { ...config, file };
  }
  return config;
}

interface Connection<T extends string> {
  type: T;
  ip?: string;
  port?: string | number;
  password?: string;
}

function parseConnection<T extends string>(
  raw: unknown,
  path: string,
  problems: Problems,
  types: readonly T[],
  fallback: T,
): Connection<T> | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = (object.type === undefined || object.type === "" ? fallback : object.type) as T;
  if (!types.includes(type)) {
    problems.push({
      path: childPath(path, "type"),
      problem: `unknown console type ${JSON.stringify(object.type)} (${types.join(", ")})`,
    });
    return undefined;
  }
  const port = object.port;
  const portValid = typeof port === "string" || (typeof port === "number" && Number.isInteger(port));
  if (!isAbsent(port) && !portValid) {
    problems.push({ path: childPath(path, "port"), problem: `expected a port, got ${jsonType(port)}` });
  }
  return assignDefined<Connection<T>>(
    { type },
    {
      ip: readString(object.ip, childPath(path, "ip"), problems),
      port: portValid ? port : undefined,
      password: readString(object.password, childPath(path, "password"), problems),
    },
  );
}

/** `${}` in ip, port and password (templates.md §3); rust's rconws port is `${RConPort}`. */
export function substituteConsoleConfig<T extends ConsoleConfig | OutputConfig>(
  config: T,
  tokens: TokenValues,
  userValues: UserValueNames,
): T {
  const replaceTokens = (text: string) => substituteTokens(text, tokens, "text", userValues);
  const copy = { ...config };
  if (copy.ip !== undefined) copy.ip = replaceTokens(copy.ip);
  if (typeof copy.port === "string") copy.port = replaceTokens(copy.port);
  if (copy.password !== undefined) copy.password = replaceTokens(copy.password);
  return copy;
}
