import type { ModsConfig } from "./mods.ts";
import type { Operation } from "./operation-kinds.ts";

/**
 * The v3 template / server definition document (reference api.md §6). The same
 * shape is a template in a repo, a local template, the body that creates a
 * server and the daemon's stored definition. Optional fields stay optional so
 * a parsed template serialises back to a document the v3 schema accepts;
 * defaults are applied where the document is used (see run.ts).
 */

export type VariableType = "string" | "integer" | "boolean" | "option";
export type VariableValue = string | number | boolean;

export interface VariableOption {
  value: VariableValue;
  display?: string;
}

export interface Variable {
  type: VariableType;
  /** Already converted to `type` (integer → number, boolean → boolean). */
  value: VariableValue;
  display?: string;
  /** Help text; may hold HTML, so sanitise it before rendering. */
  desc?: string;
  required?: boolean;
  /** True: the server's users (not only admins) may change it. */
  userEdit?: boolean;
  /** Hidden state, such as a value written by an operation's outputVariable. */
  internal?: boolean;
  /**
   * True: the value is a port the server listens on, given from its node's allocations
   * (port-variables.ts); false: it is not, whatever its name says.
   */
  port?: boolean;
  options?: VariableOption[];
}

export interface Group {
  /** CEL condition that shows or hides the group in the UI. */
  if?: string;
  display?: string;
  description?: string;
  variables: string[];
  order?: number;
}

export type ConsoleType = "stdin" | "telnet" | "rcon" | "rconws";

/** Where console input goes (`run.stdin`, a command entry's or a command op's `stdin`). */
export interface ConsoleConfig {
  type: ConsoleType;
  ip?: string;
  port?: string | number;
  password?: string;
}

/** Where console output comes from (`run.stdout`); no corpus template sets it. */
export interface OutputConfig {
  type: "stdout" | "telnet" | "rcon" | "rconws" | "file";
  ip?: string;
  port?: string | number;
  password?: string;
  file?: string;
}

export interface RunCommandEntry {
  if?: string;
  command: string;
  stdin?: ConsoleConfig;
}

export interface Execution {
  /** One command line, or candidates chosen by their CEL `if` (see selectRunCommand). */
  command: string | RunCommandEntry[];
  /** Console text that stops the server; not substituted. */
  stop?: string;
  /** Signal number that stops the server; when non-zero it wins over `stop`. */
  stopCode?: number;
  pre?: Operation[];
  post?: Operation[];
  environmentVars?: Record<string, string>;
  workingDirectory?: string;
  stdin?: ConsoleConfig;
  stdout?: OutputConfig;
  autostart?: boolean;
  autorecover?: boolean;
  autorestart?: boolean;
  expectedExitCode?: number;
  /** Ours: restart the server when its query fails this many times in a row (hang watchdog; absent or 0: off). */
  unresponsiveRestartAfter?: number;
}

export interface HostEnvironment {
  type: "host";
}

export interface DockerEnvironment {
  type: "docker";
  image?: string;
  portBindings?: string[];
  networkName?: string;
  bindings?: Record<string, string>;
  containerRoot?: string;
  labels?: Record<string, string>;
  config?: Record<string, unknown>;
  hostConfig?: Record<string, unknown>;
}

export type Environment = HostEnvironment | DockerEnvironment;
export type EnvironmentType = Environment["type"];

export interface Requirements {
  /** Go GOOS names, alternatives joined by `||`: `linux || windows`. */
  os?: string;
  /** Go GOARCH names, alternatives joined by `||`: `amd64 || arm64`. */
  arch?: string;
  /** Programs looked up on PATH; each entry may be `a || b` and may hold `${}` tokens. */
  binaries?: string[];
}

export interface Template {
  type: string;
  /** The server id; set once the template became a server. */
  id?: string;
  display?: string;
  icon?: string;
  data: Record<string, Variable>;
  groups?: Group[];
  install: Operation[];
  uninstall: Operation[];
  run: Execution;
  environment: Environment;
  supportedEnvironments?: Environment[];
  requirements: Requirements;
  stats?: { type: "" | "jcmd" };
  /** "" (none), "minecraft", or another query protocol by its gamedig name. */
  query?: { type: string };
  /** What mods or plugins the server takes, and where (mods.ts); an Outpost addition. */
  mods?: ModsConfig;
  /** Resources the server may use; an Outpost addition, set by administrators only. */
  limits?: ServerLimits;
  /** Player commands and lists (players.ts); an Outpost addition. */
  players?: PlayerCommands;
  /** What an imported Pterodactyl / Pelican egg needs beyond v3; an Outpost addition (egg.ts). */
  egg?: EggExtras;
  /** What a backup of it does around the archive; an Outpost addition (backup-hooks.ts). */
  backup?: BackupHooks;
}

/** The template's `backup`: console lines around a running server's backup, and what it leaves out. */
export interface BackupHooks {
  before?: string[];
  after?: string[];
  /** Console text awaited after `before`, up to `timeout` seconds (default 60). */
  waitFor?: string;
  timeout?: number;
  /** Gitignore patterns every backup of the server leaves out (beside its `.outpostignore`). */
  exclude?: string[];
}

export type EggConfigParser = "properties" | "yaml" | "json" | "ini" | "xml" | "file";

/** One `config.files` entry: keys to set in a file before each start, values with `${}` tokens. */
export interface EggConfigFile {
  file: string;
  parser: EggConfigParser;
  find: Record<string, unknown>;
}

/** A variable's checks from the egg's Laravel rules that no v3 field holds; empty values skip them. */
export interface EggRule {
  minValue?: number;
  maxValue?: number;
  minLength?: number;
  maxLength?: number;
  /** A number, possibly with decimals (`numeric`). */
  numeric?: boolean;
  /** Regular expressions (JavaScript syntax) the value must match, each with its flags. */
  patterns?: { source: string; flags: string }[];
  notIn?: string[];
}

export interface EggExtras {
  /** The egg format it came from: PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3. */
  format: string;
  description?: string;
  /** The install script, run in a one-off container of `image` with `entrypoint`, the server folder at /mnt/server. */
  install?: { image: string; entrypoint: string; script: string };
  /** File edits applied before each start (`config.files`). */
  configFiles?: EggConfigFile[];
  /** Console text that marks the server as running (`config.startup.done`). */
  done?: string[];
  /** Files the file manager and SFTP refuse to change (`file_denylist`, as the egg wrote them). */
  denylist?: string[];
  /** `features`: eula, java_version, pid_limit, steam_disk_space, … */
  features?: string[];
  /** Checks per variable from the egg's rules. */
  rules?: Record<string, EggRule>;
  /** Variables the egg hides from the server's users (`user_viewable: false`). */
  hidden?: string[];
}

/** Per-server resource limits; each absent value means the node's default. */
export interface ServerLimits {
  memoryMiB?: number;
  pids?: number;
  /** Percent of one core: 100 = one core, 50 = half of one. */
  cpuPercent?: number;
  diskMiB?: number;
  /**
   * Swap the server may use beside its memory limit, in MiB: absent or 0 = none (the memory limit
   * is all it gets), "unlimited" = as much as the host has. Only with `memoryMiB`.
   */
  swapMiB?: number | "unlimited";
  /** Its share of disk time against other servers under contention, 10–1000 (absent = the kernel's default). */
  ioWeight?: number;
  /** The CPU threads it may run on, as a cpuset list: "0", "0,2", "0-3", "0-3,8" (absent = all). */
  cpuThreads?: string;
}

/** A template's `players` (players.ts): commands with `${player}`, `${reason}`, `${message}`. */
export interface PlayerCommands {
  kick?: string;
  ban?: string;
  unban?: string;
  whitelistAdd?: string;
  whitelistRemove?: string;
  op?: string;
  deop?: string;
  say?: string;
  /** How the commands are sent: the server's console (default) or Source RCON. */
  via?: "console" | "rcon";
  /** Where RCON listens and its password; values may use `${variable}`. */
  rcon?: { ip?: string; port?: string | number; password?: string };
  /** Files in the server's folder holding the game's lists (JSON). */
  lists?: PlayerLists;
  /** What a player's name must match; default `^[A-Za-z0-9_]{1,16}$`. */
  namePattern?: string;
}

export interface PlayerLists {
  whitelist?: string;
  ops?: string;
  bans?: string;
}
