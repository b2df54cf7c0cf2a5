import { minecraftBackupHooks } from "./backup-hooks.ts";
import { eggGameType } from "./egg-game.ts";
import { readRules } from "./egg-rules.ts";
import { convertStartup, serverValueNames } from "./egg-startup.ts";
import { eggMods } from "./mods.ts";
import { childPath, isObject, jsonType, type Problem } from "./problems.ts";
import type { EggConfigFile, EggConfigParser, EggExtras, EggRule, Variable } from "./types.ts";

type Json = Record<string, unknown>;

/**
 * Pterodactyl and Pelican "eggs" (PTDL_v1, PTDL_v2, PLCN_v1–v3; parsed from
 * JSON or YAML by the caller) converted to a v3 template:
 * - docker image(s) → the docker environment, each image one choice,
 *   mounted at /home/container as the egg images expect;
 * - startup (or PLCN's startup_commands, a choice) → run.command (egg-startup.ts);
 *   every variable is also an environment variable, as in Pterodactyl, and
 *   SERVER_MEMORY / SERVER_PORT / SERVER_IP are our memory, port, ip;
 * - variables and their rules → data (egg-rules.ts);
 * - config.stop `^C` → SIGINT, else a console command;
 * - what v3 has no field for goes in the Outpost `egg` object: the install
 *   script with its container, config.files edits, the done line,
 *   file_denylist, features, rule checks.
 * Each thing that cannot be converted is a problem at the egg's own field.
 */
export interface EggConversion {
  ok: boolean;
  document?: Json;
  problems: Problem[];
  changes: string[];
}

const formats = /^(PTDL_v[12]|PLCN_v[123])$/;

/** Whether a parsed document is an egg (its meta.version names an egg format). */
export function isEgg(input: unknown): boolean {
  return isObject(input) && isObject(input.meta) && formats.test(String(input.meta.version ?? ""));
}

const parsers = new Set<EggConfigParser>(["properties", "yaml", "json", "ini", "xml", "file"]);
/** The docker folder egg images run in; install scripts see it at /mnt/server. */
export const eggContainerRoot = "/home/container";

export function convertEgg(input: unknown): EggConversion {
  const problems: Problem[] = [];
  const changes: string[] = [];
  if (!isEgg(input)) {
    return {
      ok: false,
      problems: [{ path: "meta.version", problem: "not an egg (PTDL_v1, PTDL_v2 or PLCN_v1–v3)" }],
      changes,
    };
  }
  const egg = input as Json;
  const format = String((egg.meta as Json).version);
  const fail = (path: string, problem: string) => problems.push({ path, problem });
  const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

  const { data, rules, hidden, userEditable } = convertVariables(egg.variables, fail, changes);
  const known = new Set(Object.keys(data));
  for (const name of Object.keys(serverValueNames)) {
    if (known.has(name)) fail(`variables`, `${name} is the server's own value and cannot be a variable`);
  }
  data.memory = { type: "integer", value: 1024, display: "Memory (MiB)", required: true, userEdit: false };
  data.port = { type: "integer", value: 25565, display: "Port", required: true, userEdit: false };
  data.ip = { type: "string", value: "0.0.0.0", display: "IP", required: true, userEdit: false };

  const images = dockerImages(egg, fail);
  const command = runCommand(egg, { known, userEditable }, data, fail, changes);
  const config = readConfig(egg.config, fail);
  const run: Json = { command, environmentVars: environmentVars(known) };
  const stop = text(config.stop).trim();
  if (/^\^\^?[cC]$/.test(stop)) run.stopCode = 2;
  else if (stop.startsWith("^")) fail("config.stop", `${stop} names no signal we can send (^C is SIGINT)`);
  else if (stop) run.stop = stop;
  else fail("config.stop", "is empty: the egg does not say how to stop the server");

  const extras: EggExtras = { format };
  if (typeof egg.description === "string" && egg.description) extras.description = egg.description;
  const install = installScript(egg.scripts, fail);
  if (install) extras.install = install;
  const configFiles = readConfigFiles(config.files, known, fail, changes);
  const features = stringList(egg.features, "features", fail);
  if (features.includes("eula") && !known.has("EULA")) {
    // Pterodactyl asks when the console says so; here the wizard asks (a user's checkbox), and
    // eula.txt is written from the answer before each start.
    data.EULA = {
      type: "boolean",
      value: false,
      display: "Accept the Minecraft EULA",
      desc: 'The server runs only once you accept the <a href="https://aka.ms/MinecraftEULA">Minecraft EULA</a>.',
      required: true,
      userEdit: true,
    };
    configFiles.push({ file: "eula.txt", parser: "properties", find: { eula: "${EULA}" } });
    changes.push("features: eula → the variable EULA, written to eula.txt before each start");
  }
  if (configFiles.length) extras.configFiles = configFiles;
  const done = readDone(config.startup, fail);
  if (done.length) extras.done = done;
  if (config.logs !== undefined && !isEmpty(config.logs))
    changes.push("config.logs: the console is kept by the node, not read from a log file");
  if (config.extends != null && config.extends !== "")
    fail("config.extends", "eggs that extend another egg's configuration cannot be imported alone");
  const denylist = stringList(egg.file_denylist, "file_denylist", fail);
  if (denylist.length) extras.denylist = denylist;
  if (features.length) extras.features = features;
  if (Object.keys(rules).length) extras.rules = rules;
  if (hidden.length) extras.hidden = hidden;

  const type = eggGameType(
    text(egg.name),
    text(egg.description),
    images.map((image) => String((image as { image?: unknown }).image ?? "")),
  );
  const document: Json = {
    type,
    display: text(egg.name) || "Imported egg",
    data,
    install: [],
    run,
    environment: images[0] ?? { type: "docker", image: "", containerRoot: eggContainerRoot },
    supportedEnvironments: images,
    requirements: {},
    egg: extras,
  };
  // A Minecraft world is flushed and held still while a running server is backed up.
  if (type === "minecraft-java") document.backup = minecraftBackupHooks;
  const mods = eggMods(text(egg.name), Object.keys(data));
  if (mods) document.mods = mods;
  return { ok: problems.length === 0, document, problems, changes };
}

function isEmpty(value: unknown): boolean {
  if (value == null || value === "" || value === "{}" || value === "[]") return true;
  return isObject(value) && Object.keys(value).length === 0;
}

/** PTDL_v2 keeps config objects as JSON text; PLCN as objects. */
function jsonField(value: unknown, path: string, fail: (path: string, problem: string) => void): unknown {
  if (typeof value !== "string") return value;
  if (!value.trim()) return undefined;
  try {
    return JSON.parse(value);
  } catch (error) {
    fail(path, `is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

function readConfig(raw: unknown, fail: (path: string, problem: string) => void): Json {
  if (raw == null) return {};
  if (!isObject(raw)) {
    fail("config", `expected an object, got ${jsonType(raw)}`);
    return {};
  }
  return {
    ...raw,
    files: jsonField(raw.files, "config.files", fail),
    startup: jsonField(raw.startup, "config.startup", fail),
    logs: jsonField(raw.logs, "config.logs", fail),
  };
}

function stringList(raw: unknown, path: string, fail: (path: string, problem: string) => void): string[] {
  if (raw == null) return [];
  if (typeof raw === "string") return raw.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (isObject(raw) && Object.keys(raw).length === 0) return [];
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === "string")) {
    fail(path, `expected a list of strings, got ${jsonType(raw)}`);
    return [];
  }
  return raw.filter((item) => item.trim() !== "");
}

function convertVariables(raw: unknown, fail: (path: string, problem: string) => void, changes: string[]) {
  const data: Record<string, Variable> = {};
  const rules: Record<string, EggRule> = {};
  const hidden: string[] = [];
  const userEditable = new Set<string>();
  const list = raw == null ? [] : Array.isArray(raw) ? raw : undefined;
  if (!list) fail("variables", `expected a list, got ${jsonType(raw)}`);
  const sorted = (list ?? [])
    .map((variable, index) => ({ variable, index }))
    .sort((a, b) => sortOf(a.variable, a.index) - sortOf(b.variable, b.index));
  for (const { variable, index } of sorted) {
    const path = childPath("variables", index);
    if (!isObject(variable)) {
      fail(path, `expected an object, got ${jsonType(variable)}`);
      continue;
    }
    const name = typeof variable.env_variable === "string" ? variable.env_variable.trim() : "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      fail(
        childPath(path, "env_variable"),
        `${JSON.stringify(variable.env_variable)} is not an environment variable name`,
      );
      continue;
    }
    if (Object.hasOwn(data, name)) {
      // Pterodactyl sets the environment variable once; the first definition is the one shown first.
      changes.push(`${childPath(path, "env_variable")}: ${name} is defined twice; the first one is kept`);
      continue;
    }
    const defaultValue = variable.default_value == null ? "" : String(variable.default_value);
    const read = readRules(variable.rules, defaultValue);
    for (const problem of read.problems) fail(childPath(path, "rules"), problem);
    const converted: Variable = {
      type: read.type,
      value: read.value,
      display: String(variable.name ?? name),
      desc: String(variable.description ?? ""),
      required: read.required,
      userEdit: variable.user_editable === true || variable.user_editable === 1,
    };
    if (read.options) converted.options = read.options;
    data[name] = converted;
    if (read.rule) rules[name] = read.rule;
    if (converted.userEdit) userEditable.add(name);
    if (variable.user_viewable === false || variable.user_viewable === 0) hidden.push(name);
  }
  return { data, rules, hidden, userEditable };
}

function sortOf(variable: unknown, index: number): number {
  return isObject(variable) && typeof variable.sort === "number" ? variable.sort : index;
}

/** Every image the egg offers, as one docker environment each (the wizard's choice). */
function dockerImages(egg: Json, fail: (path: string, problem: string) => void): Json[] {
  let images: string[] = [];
  if (isObject(egg.docker_images)) images = Object.values(egg.docker_images).map(String);
  else if (Array.isArray(egg.docker_images)) images = egg.docker_images.map(String);
  else if (Array.isArray(egg.images)) images = egg.images.map(String);
  if (images.length === 0 && typeof egg.image === "string") images = [egg.image];
  images = [...new Set(images.map((image) => image.trim()).filter(Boolean))];
  if (images.length === 0) fail("docker_images", "the egg names no docker image");
  return images.map((image) => ({ type: "docker", image, containerRoot: eggContainerRoot }));
}

/** The environment of the server's process: each egg variable and the server's own values. */
function environmentVars(known: Set<string>): Record<string, string> {
  const env: Record<string, string> = { TZ: "UTC" };
  for (const [name, ours] of Object.entries(serverValueNames)) env[name] = `\${${ours}}`;
  for (const name of known) env[name] = `\${${name}}`;
  return env;
}

/** startup, or PLCN_v3's startup_commands (display → line): a choice of lines becomes a variable. */
function runCommand(
  egg: Json,
  vars: { known: Set<string>; userEditable: Set<string> },
  data: Record<string, Variable>,
  fail: (path: string, problem: string) => void,
  changes: string[],
): Json["command"] {
  const lines: [string, string, string][] = [];
  if (isObject(egg.startup_commands) && Object.keys(egg.startup_commands).length > 0) {
    for (const [display, line] of Object.entries(egg.startup_commands)) {
      lines.push([display, String(line ?? ""), childPath("startup_commands", display)]);
    }
  } else if (typeof egg.startup === "string") {
    lines.push(["", egg.startup, "startup"]);
  } else {
    fail("startup", "the egg has no startup command");
    return "";
  }
  const commands = lines.map(([display, line, path]) => {
    const result = convertStartup(line, vars);
    if (!result.ok) {
      fail(path, result.problem);
      return { display, command: "" };
    }
    if (result.shell) changes.push(`${path}: runs through a shell (it uses shell syntax)`);
    for (const name of result.unknown)
      changes.push(`${path}: {{${name}}} is no variable of the egg; it is left empty`);
    return { display, command: result.command };
  });
  if (commands.length === 1) return commands[0].command;
  data.STARTUP_COMMAND = {
    type: "option",
    value: commands[0].display,
    display: "Startup command",
    required: true,
    userEdit: false,
    options: commands.map(({ display }) => ({ value: display })),
  };
  return commands.map(({ display, command }, index) =>
    index === 0 ? { command } : { command, if: `STARTUP_COMMAND == ${JSON.stringify(display)}` },
  );
}

function installScript(raw: unknown, fail: (path: string, problem: string) => void): EggExtras["install"] {
  const installation = isObject(raw) && isObject(raw.installation) ? raw.installation : undefined;
  const script = typeof installation?.script === "string" ? installation.script.replace(/\r\n/g, "\n") : "";
  if (!installation || !script.trim()) return undefined;
  const image = typeof installation.container === "string" ? installation.container.trim() : "";
  if (!image) {
    fail("scripts.installation.container", "the install script names no container image");
    return undefined;
  }
  const entrypoint =
    typeof installation.entrypoint === "string" && installation.entrypoint.trim()
      ? installation.entrypoint.trim()
      : "ash";
  return { image, entrypoint, script };
}

function readDone(raw: unknown, fail: (path: string, problem: string) => void): string[] {
  if (raw == null) return [];
  if (!isObject(raw)) {
    fail("config.startup", `expected an object, got ${jsonType(raw)}`);
    return [];
  }
  const done = raw.done;
  if (done == null || done === "") return [];
  if (typeof done === "string") return [done];
  if (Array.isArray(done) && done.every((line) => typeof line === "string")) return done.filter(Boolean);
  fail("config.startup.done", `expected a string or a list of strings, got ${jsonType(done)}`);
  return [];
}

/** Wings' placeholders in config.files values → our `${}` tokens. */
function configPlaceholder(expression: string, known: Set<string>): string | undefined {
  const variable = (name: string) =>
    Object.hasOwn(serverValueNames, name)
      ? `\${${serverValueNames[name]}}`
      : known.has(name)
        ? `\${${name}}`
        : undefined;
  if (/^server\.(build|allocations)\.default\.port$/.test(expression)) return "${port}";
  if (/^server\.(build|allocations)\.default\.ip$/.test(expression)) return "${ip}";
  if (expression === "server.build.memory") return "${memory}";
  // Wings' docker interface address; a container on the host network reaches the host here.
  if (expression === "config.docker.interface") return "127.0.0.1";
  const env = /^(?:server\.build\.env|env|server\.environment)\.(\w+)$/.exec(expression);
  return env ? variable(env[1]) : undefined;
}

function readConfigFiles(
  raw: unknown,
  known: Set<string>,
  fail: (path: string, problem: string) => void,
  changes: string[],
): EggConfigFile[] {
  if (raw == null || (Array.isArray(raw) && raw.length === 0)) return [];
  if (!isObject(raw)) {
    fail("config.files", `expected an object, got ${jsonType(raw)}`);
    return [];
  }
  const out: EggConfigFile[] = [];
  for (const [file, entry] of Object.entries(raw)) {
    const path = childPath("config.files", file);
    if (!isObject(entry)) {
      fail(path, `expected an object, got ${jsonType(entry)}`);
      continue;
    }
    // Wings reads these paths from the server folder: a leading / is that folder.
    const relative = file.replace(/^\/+/, "");
    if (!relative || /(^|\/)\.\.(\/|$)/.test(relative)) {
      fail(path, "the file must be inside the server folder");
      continue;
    }
    const parser = String(entry.parser ?? "") === "yml" ? "yaml" : String(entry.parser ?? "");
    if (!parsers.has(parser as EggConfigParser)) {
      fail(
        childPath(path, "parser"),
        `unknown parser ${JSON.stringify(entry.parser)} (properties, yaml, json, ini, xml or file)`,
      );
      continue;
    }
    if (entry.parser === "yml") changes.push(`${path}: parser yml read as yaml`);
    if (!isObject(entry.find)) {
      fail(childPath(path, "find"), `expected an object, got ${jsonType(entry.find)}`);
      continue;
    }
    let bad = false;
    const convert = (value: unknown, at: string): unknown => {
      if (typeof value === "string") {
        return value.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (match, expression: string) => {
          const token = configPlaceholder(expression, known);
          if (
            token === undefined &&
            /^(?:server\.build\.env|env|server\.environment)\.\w+$/.test(expression)
          ) {
            // Wings writes an unset environment variable as empty text.
            changes.push(`${at}: ${match} is no variable of the egg; it is left empty`);
            return "";
          }
          if (token === undefined) {
            fail(at, `placeholder ${match} names nothing the server has`);
            bad = true;
          }
          return token ?? match;
        });
      }
      if (Array.isArray(value)) return value.map((item, index) => convert(item, childPath(at, index)));
      if (isObject(value)) {
        return Object.fromEntries(
          Object.entries(value).map(([key, item]) => [key, convert(item, childPath(at, key))]),
        );
      }
      return value;
    };
    const find = convert(entry.find, childPath(path, "find")) as Record<string, unknown>;
    if (!bad) out.push({ file: relative, parser: parser as EggConfigParser, find });
  }
  return out;
}
