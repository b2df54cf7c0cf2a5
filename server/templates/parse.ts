import { parseBackupHooks } from "./backup-hooks.ts";
import { readCondition } from "./conditions.ts";
import { parseEggExtras } from "./egg-extras.ts";
import { parseEnvironment } from "./environments.ts";
import {
  assignDefined,
  readInteger,
  readList,
  readObject,
  readString,
  readStringList,
  requireField,
} from "./fields.ts";
import { parseLimits } from "./limits.ts";
import { parseMods } from "./mods.ts";
import { parseOperations } from "./parse-operations.ts";
import { parseExecution } from "./parse-run.ts";
import { parsePlayerCommands } from "./players.ts";
import { childPath, isObject, jsonType, type Problem, type Problems } from "./problems.ts";
import type { Environment, Group, Requirements, Template, Variable } from "./types.ts";
import { parseVariable } from "./variables.ts";

export type ParseResult = { ok: true; template: Template } | { ok: false; problems: Problem[] };

/**
 * Reads a v3 template or server definition from parsed JSON, the way the Go
 * panel's loader does (variable values converted to their types, `standard`
 * and `tty` read as `host`, unknown keys ignored), and reports every problem
 * with its path. Older documents go through importTemplate instead.
 */
export function parseTemplate(input: unknown): ParseResult {
  const problems: Problems = [];
  if (!isObject(input)) {
    return { ok: false, problems: [{ path: "", problem: `expected an object, got ${jsonType(input)}` }] };
  }
  const template = assignDefined<Template>(
    {
      type: readString(input.type, "type", problems) ?? "",
      data: parseData(input.data, "data", problems),
      install: parseOperations(input.install, "install", problems) ?? [],
      uninstall: parseOperations(input.uninstall, "uninstall", problems) ?? [],
      run: parseExecution(input.run, "run", problems) ?? { command: "" },
      environment: parseEnvironment(input.environment, "environment", problems) ?? { type: "host" },
      requirements: parseRequirements(input.requirements, "requirements", problems),
    },
    {
      id: readString(input.id, "id", problems),
      display: readString(input.display, "display", problems),
      icon: readString(input.icon, "icon", problems),
      groups: parseGroups(input.groups, "groups", problems),
      supportedEnvironments: parseEnvironmentList(
        input.supportedEnvironments,
        "supportedEnvironments",
        problems,
      ),
      stats: parseKind(input.stats, "stats", ["", "jcmd"] as const, problems),
      query: parseQuery(input.query, problems),
      mods: parseMods(input.mods, "mods", problems),
      limits: parseLimits(input.limits, "limits", problems),
      egg: parseEggExtras(input.egg, "egg", problems),
      players: parsePlayerCommands(input.players, "players", problems),
      backup: parseBackupHooks(input.backup, "backup", problems),
    },
  );
  return problems.length ? { ok: false, problems } : { ok: true, template };
}

function parseData(raw: unknown, path: string, problems: Problems): Record<string, Variable> {
  const data: Record<string, Variable> = {};
  for (const [name, value] of Object.entries(readObject(raw, path, problems) ?? {})) {
    const variablePath = childPath(path, name);
    if (!name.trim()) problems.push({ path: variablePath, problem: "a variable needs a name" });
    const variable = parseVariable(value, variablePath, problems);
    if (variable) data[name] = variable;
  }
  return data;
}

function parseGroups(raw: unknown, path: string, problems: Problems): Group[] | undefined {
  return readList(raw, path, problems)?.flatMap((item, index) => {
    const groupPath = childPath(path, index);
    const object = readObject(item, groupPath, problems);
    if (!object) return [];
    const at = (key: string) => childPath(groupPath, key);
    requireField(object.variables, at("variables"), problems);
    return assignDefined<Group>(
      { variables: readStringList(object.variables, at("variables"), problems) ?? [] },
      {
        if: readCondition(object.if, at("if"), problems),
        display: readString(object.display, at("display"), problems),
        description: readString(object.description, at("description"), problems),
        order: readInteger(object.order, at("order"), problems),
      },
    );
  });
}

function parseEnvironmentList(raw: unknown, path: string, problems: Problems): Environment[] | undefined {
  return readList(raw, path, problems)?.flatMap(
    (item, index) => parseEnvironment(item, childPath(path, index), problems) ?? [],
  );
}

function parseRequirements(raw: unknown, path: string, problems: Problems): Requirements {
  const object = readObject(raw, path, problems) ?? {};
  return assignDefined<Requirements>(
    {},
    {
      os: readString(object.os, childPath(path, "os"), problems),
      arch: readString(object.arch, childPath(path, "arch"), problems),
      binaries: readStringList(object.binaries, childPath(path, "binaries"), problems),
    },
  );
}

/** `stats` and `query`: `{type}` with a known type. */
/**
 * The query protocol: "minecraft" in the reference, and here any game the
 * query library knows (a gamedig type name such as "openttd" or "valheim").
 */
function parseQuery(raw: unknown, problems: Problems): { type: string } | undefined {
  const object = readObject(raw, "query", problems);
  if (!object) return undefined;
  const type = object.type ?? "";
  if (typeof type === "string" && /^[a-z0-9_-]{0,64}$/i.test(type)) return { type };
  problems.push({ path: "query.type", problem: "must be a query type name (letters, digits, - or _)" });
  return undefined;
}

function parseKind<T extends string>(
  raw: unknown,
  path: string,
  kinds: readonly T[],
  problems: Problems,
): { type: T } | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = object.type ?? "";
  if (kinds.includes(type as T)) return { type: type as T };
  problems.push({
    path: childPath(path, "type"),
    problem: `unknown type ${JSON.stringify(type)} (${kinds.filter(Boolean).join(", ")})`,
  });
  return undefined;
}
