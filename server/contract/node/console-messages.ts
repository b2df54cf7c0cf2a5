// The node's own console lines ("[DAEMON] Starting server" …), one table for the node that writes
// them and the clients that read them. The node writes each in English into the one console
// stream (PufferPanel's client and plain readers show it as it is); our client reads the code
// back from that text (a kept console is stored text, so text is what it has) by this same table
// and shows it in the page's language. A task run's lines ("[TASK] server started" …, in the run's
// stored output) go through the same table. Browser-safe: no Node modules.

/**
 * How an argument is written and read back:
 * - `text`: foreign text (a reason from the system, git, a path, a command), shown quoted;
 * - `token`: foreign text without spaces (a URL, an image, a file name), shown quoted;
 * - `word`: one word of ours without spaces (a signal, a loader, a parser), shown as it is;
 * - `integer`: a whole number (an exit code, a count, MiB);
 * - `size`: bytes, written "1.5 MiB" and read back as a number of bytes.
 */
export type NodeArgKind = "text" | "token" | "word" | "integer" | "size";

interface Spec {
  /** The English, `{name}` for an argument, `{name|one|other}` for an English word that follows a count. */
  readonly en: string;
  readonly args?: Readonly<Record<string, NodeArgKind>>;
}

/** code → the English the node writes. A code never changes meaning once shipped (kept consoles). */
export const nodeMessages = {
  // Running.
  starting: { en: "Starting server" },
  stopRequested: { en: "Server was told to stop" },
  stopTimeout: { en: "Server did not stop in time, killing it" },
  exited: { en: "Server exited with code {code}", args: { code: "integer" } },
  crashed: { en: "Server exited with code {code} (crash)", args: { code: "integer" } },
  signalled: { en: "Server was ended by {signal}", args: { signal: "word" } },
  memoryKilledAt: {
    en: "Server was killed: it went over its memory limit ({mib} MiB) (crash)",
    args: { mib: "integer" },
  },
  memoryKilled: { en: "Server was killed: it went over its memory limit (crash)" },
  limitsFailed: { en: "Could not apply the server's limits: {reason}", args: { reason: "text" } },
  cgroupRemoveFailed: { en: "Could not remove the server's cgroup: {reason}", args: { reason: "text" } },
  postFailed: { en: "Post steps failed: {reason}", args: { reason: "text" } },
  crashLimit: {
    en: "Server crashed {count} {count|time|times} in a row; not restarting it",
    args: { count: "integer" },
  },
  restartAfterExit: { en: "Restarting after a graceful exit" },
  restartAfterCrash: {
    en: "Restarting after a crash ({count} of {limit})",
    args: { count: "integer", limit: "integer" },
  },
  restartFailed: { en: "Restart failed: {reason}", args: { reason: "text" } },
  restartUnresponsive: {
    en: "Server did not answer its query {count} {count|time|times} in a row; restarting it",
    args: { count: "integer" },
  },
  unresponsiveStopped: {
    en: "Server kept not answering its query (restarts in the last {minutes} min: {count}); stopping it and leaving it stopped",
    args: { count: "integer", minutes: "integer" },
  },
  autostartFailed: { en: "Autostart failed: {reason}", args: { reason: "text" } },
  refused: { en: "Refused: {reason}", args: { reason: "text" } },
  couldNotStart: { en: "could not start {command}: {reason}", args: { command: "text", reason: "text" } },
  taskPatternPaused: {
    en: 'Task "{task}": its console pattern took too long and is paused for a minute',
    args: { task: "text" },
  },
  // Disk limit.
  diskNotStarting: {
    en: "Not starting: the server is over its disk limit ({limit} MiB); delete files first",
    args: { limit: "integer" },
  },
  diskNotInstalling: {
    en: "Not installing: the server is over its disk limit ({limit} MiB); delete files first",
    args: { limit: "integer" },
  },
  diskStoppingSteps: {
    en: "Server went over its disk limit ({limit} MiB): stopping its install steps",
    args: { limit: "integer" },
  },
  diskStopping: {
    en: "Server went over its disk limit ({limit} MiB): stopping it; it starts again once files are deleted",
    args: { limit: "integer" },
  },
  diskKilling: {
    en: "Server is still over its disk limit ({limit} MiB), killing it",
    args: { limit: "integer" },
  },
  // Containers.
  containerMemoryKilled: { en: "The server went over its memory limit and was killed" },
  containerLost: { en: "Lost the container: {reason}", args: { reason: "text" } },
  containerRemoveFailed: { en: "Could not remove the container: {reason}", args: { reason: "text" } },
  containerStartFailed: { en: "Could not start the container: {reason}", args: { reason: "text" } },
  noDocker: { en: "No Docker engine answers on this node" },
  dockerIgnored: {
    en: "Not applied on this node (they could reach the host): {settings}",
    args: { settings: "text" },
  },
  imagePulling: { en: "Pulling image {image}", args: { image: "token" } },
  imagePulled: { en: "Pulled image {image}", args: { image: "token" } },
  imagePullFailed: { en: "Could not pull image {image}: {reason}", args: { image: "token", reason: "text" } },
  // Install, backup, restore.
  installing: { en: "Installing server" },
  installed: { en: "Server installed" },
  installFailed: { en: "Install failed: {reason}", args: { reason: "text" } },
  uninstallFailed: { en: "Uninstall failed: {reason}", args: { reason: "text" } },
  backingUp: { en: "Backing up server" },
  backupLeftOut: { en: "Backup left out {place}: {reason}", args: { place: "text", reason: "text" } },
  backupDone: { en: "Backup complete" },
  backupFailed: { en: "Backup failed: {reason}", args: { reason: "text" } },
  restoring: { en: "Restoring backup" },
  restored: { en: "Backup restored" },
  restoreFailed: { en: "Restore failed: {reason}", args: { reason: "text" } },
  eggInstall: { en: "Running the egg's install script in {image}", args: { image: "token" } },
  eggConfigTooBig: { en: "Config file {file} is too big to edit; left as it is", args: { file: "text" } },
  eggConfigFailed: {
    en: "Config file {file} could not be edited ({parser}): {reason}",
    args: { file: "text", parser: "word", reason: "text" },
  },
  // Install steps (the reference's own wording where it has one).
  skipping: {
    en: 'Skipping {step}: its condition "{condition}" is false',
    args: { step: "word", condition: "text" },
  },
  executing: { en: "Executing: {command}", args: { command: "text" } },
  downloadingFile: { en: "Downloading file {url}", args: { url: "token" } },
  downloaded: { en: "Downloaded {url} to {file}", args: { url: "token", file: "text" } },
  downloading: { en: "Downloading {url}", args: { url: "token" } },
  downloadingTo: { en: "Downloading {url} to {file}", args: { url: "token", file: "token" } },
  cachedCopy: { en: "Using the cached copy of {url}", args: { url: "token" } },
  downloadExtract: { en: "Downloading and extracting {url}", args: { url: "token" } },
  downloadProgressOf: {
    en: "Downloading {what}: {done} of {total} ({percent}%)",
    args: { what: "text", done: "size", total: "size", percent: "integer" },
  },
  downloadProgress: { en: "Downloading {what}: {done}", args: { what: "text", done: "size" } },
  writingFile: { en: "Writing some data to file: {file}", args: { file: "text" } },
  changingFile: { en: "Changing some data in file: {file}", args: { file: "text" } },
  creatingFolder: { en: "Creating directory: {folder}", args: { folder: "text" } },
  extracting: { en: "Extracting {archive} to {folder}", args: { archive: "text", folder: "text" } },
  extracted: {
    en: "Extracted {count} {count|entry|entries} from {archive}",
    args: { count: "integer", archive: "text" },
  },
  archiving: { en: "Archiving {sources} into {archive}", args: { sources: "text", archive: "text" } },
  archived: {
    en: "Archived {count} {count|entry|entries} into {archive}",
    args: { count: "integer", archive: "text" },
  },
  moving: { en: "Moving file from {from} to {to}", args: { from: "text", to: "text" } },
  nothingMoved: { en: "Nothing matches {pattern}; nothing was moved", args: { pattern: "text" } },
  sleeping: { en: "Sleeping for {duration}", args: { duration: "token" } },
  sendingToConsole: { en: "Sending to the console: {text}", args: { text: "text" } },
  javaPresent: { en: "{binary} is already installed", args: { binary: "token" } },
  javaLookup: { en: "Looking up Java {version} at {host}", args: { version: "word", host: "token" } },
  javaDownloading: {
    en: "Downloading Java {version} ({release})",
    args: { version: "word", release: "token" },
  },
  javaInstalled: { en: "Installed {binary}", args: { binary: "token" } },
  minecraftMissing: { en: "Could not locate version {version}", args: { version: "text" } },
  minecraftJson: {
    en: "Version {version} json located, downloading from {url}",
    args: { version: "token", url: "token" },
  },
  minecraftJar: { en: "Version jar located, downloading from {url}", args: { url: "token" } },
  fabricMetadata: { en: "Downloading metadata from {url}", args: { url: "token" } },
  forgeInstaller: { en: "Downloading the Forge installer {version}", args: { version: "token" } },
  neoforgeInstaller: { en: "Downloading the NeoForge installer {version}", args: { version: "token" } },
  loaderResolved: { en: "Resolved {loader} version: {version}", args: { loader: "word", version: "token" } },
  steamApp: { en: "Downloading app {app} from Steam", args: { app: "token" } },
  steamManifests: { en: "Reading the app's manifests" },
  steamFiles: { en: "Downloading the app's files" },
  depotDownloader: { en: "Downloading DepotDownloader ({asset})", args: { asset: "token" } },
  modpackDownloading: { en: "Downloading modpack from {url}", args: { url: "token" } },
  modpackExtracting: { en: "Extracting modpack {pack}", args: { pack: "text" } },
  modpackUnknownType: { en: "Unknown server type. Could not prepare the server to run" },
  modpackUnsupportedLoader: {
    en: "Unsupported mod loader {loader}. Could not prepare the server to run",
    args: { loader: "token" },
  },
  modpackInstalled: { en: "Pack installed and should be good to go!" },
  installerRunning: { en: "Running the installer {jar}", args: { jar: "text" } },
  installerNotDeleted: { en: "Failed to delete the installer" },
  serverStarter: { en: "Grabbing ServerStarter" },
  // A task run's own lines (`[TASK] ` in the run's output; its steps' lines use the codes above).
  taskOperation: { en: "operation {number}: {type}", args: { number: "integer", type: "word" } },
  taskServerStarted: { en: "server started" },
  taskServerStopped: { en: "server stopped" },
  taskServerRestarted: { en: "server restarted" },
  taskServerKilled: { en: "server killed" },
  taskBackupMade: { en: "backup {file} made", args: { file: "token" } },
  taskBackupRemoved: {
    en: "backup {file} removed (keeping {keep})",
    args: { file: "token", keep: "integer" },
  },
  // Before taskOperationFailed: its reason would match this line too.
  taskOperationTimedOut: {
    en: "operation {number} ({type}): took longer than {seconds} s",
    args: { number: "integer", type: "word", seconds: "integer" },
  },
  taskOperationFailed: {
    en: "operation {number} ({type}): {reason}",
    args: { number: "integer", type: "word", reason: "text" },
  },
  // A task run's message when it did not run to its end (the run's `message`, no prefix).
  taskRunSkipped: {
    en: "skipped: {count} task runs of this server are under way",
    args: { count: "integer" },
  },
  taskRunWaiting: { en: "waiting for another run to end" },
  taskRunShuttingDown: { en: "the node is shutting down" },
  taskRunCut: { en: "the node stopped during the run" },
  taskRunDisabled: { en: "the task was disabled or removed: this run was stopped" },
} as const satisfies Record<string, Spec>;

export type NodeMessageCode = keyof typeof nodeMessages;

type ArgValue<K> = K extends "integer" | "size" ? number : string;
/** The arguments a code takes: strings for text, numbers for integers and sizes. */
export type NodeMessageArgs<C extends NodeMessageCode> = (typeof nodeMessages)[C] extends {
  args: infer A extends Record<string, NodeArgKind>;
}
  ? { [K in keyof A]: ArgValue<A[K]> }
  : Record<string, never>;
/** `[args]` for a code with arguments, `[]` for one without. */
export type NodeMessageRest<C extends NodeMessageCode> = (typeof nodeMessages)[C] extends { args: object }
  ? [args: NodeMessageArgs<C>]
  : [];

/** A function that writes the node's lines: every `[DAEMON]` line goes through one of these. */
export type NodeNotice = <C extends NodeMessageCode>(code: C, ...args: NodeMessageRest<C>) => void;

/** What marks the node's own lines in the console (PufferPanel's prefix). */
export const DAEMON_PREFIX = "[DAEMON] ";
/** What marks a task run's own lines (and its steps' node lines) in the run's output. */
export const TASK_PREFIX = "[TASK] ";

const mebibyte = 1024 * 1024;
const sizeText = (bytes: number) =>
  bytes >= mebibyte ? `${(bytes / mebibyte).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;

/** `{name}` or `{name|one|other}` inside a template. */
const placeholder = /\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}/g;

/** The English text of a line, without prefix or newline (one line: line breaks in an argument become spaces). */
export function nodeMessageText<C extends NodeMessageCode>(code: C, ...rest: NodeMessageRest<C>): string {
  const spec: Spec = nodeMessages[code];
  const args = (rest[0] ?? {}) as Record<string, string | number>;
  return spec.en.replace(placeholder, (_, name: string, one?: string, other?: string) => {
    const value = args[name];
    if (one !== undefined) return value === 1 ? one : (other ?? "");
    const text = spec.args?.[name] === "size" ? sizeText(Number(value)) : String(value);
    return text.replace(/[\r\n]+/g, " ");
  });
}

/** The node's line as it goes into the console: `[DAEMON] <English>\n`. */
export function nodeLine<C extends NodeMessageCode>(code: C, ...rest: NodeMessageRest<C>): string {
  return `${DAEMON_PREFIX}${nodeMessageText(code, ...rest)}\n`;
}

/** A task run's line as it goes into the run's output: `[TASK] <English>\n`. */
export function taskLine<C extends NodeMessageCode>(code: C, ...rest: NodeMessageRest<C>): string {
  return `${TASK_PREFIX}${nodeMessageText(code, ...rest)}\n`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const argPattern: Record<NodeArgKind, string> = {
  text: ".+",
  token: "\\S+",
  word: "[\\w.+-]+",
  integer: "-?\\d+",
  size: "\\d+\\.\\d [KM]iB",
};

interface Reader {
  code: NodeMessageCode;
  pattern: RegExp;
  names: string[];
}

let readers: Reader[] | undefined;
/** One anchored pattern per code, built from its English (no hand-written pattern per message). */
function buildReaders(): Reader[] {
  return Object.entries(nodeMessages).map(([code, spec]: [string, Spec]) => {
    const names: string[] = [];
    let source = "";
    let at = 0;
    const holes = [...spec.en.matchAll(placeholder)];
    for (const [i, hole] of holes.entries()) {
      source += escapeRegExp(spec.en.slice(at, hole.index));
      at = hole.index + hole[0].length;
      const [, name, one, other] = hole;
      if (one !== undefined) {
        source += `(?:${escapeRegExp(one)}|${escapeRegExp(other ?? "")})`;
        continue;
      }
      const kind = spec.args?.[name] ?? "text";
      // Text before the last argument takes the shortest match: the first separator ends it.
      const lazy = kind === "text" && holes.slice(i + 1).some((h) => h[2] === undefined);
      source += `(${argPattern[kind]}${lazy ? "?" : ""})`;
      names.push(name);
    }
    source += escapeRegExp(spec.en.slice(at));
    return { code: code as NodeMessageCode, pattern: new RegExp(`^${source}$`), names };
  });
}

/** A node line read back: its code and arguments (sizes as bytes, integers as numbers). */
export interface DecodedNodeLine {
  code: NodeMessageCode;
  args: Record<string, string | number>;
}

/** The code and arguments of a node line (without its prefix); undefined for a line of no code. */
export function decodeNodeLine(text: string): DecodedNodeLine | undefined {
  readers ??= buildReaders();
  for (const reader of readers) {
    const hit = reader.pattern.exec(text);
    if (!hit) continue;
    const spec: Spec = nodeMessages[reader.code];
    const args: Record<string, string | number> = {};
    for (const [i, name] of reader.names.entries()) {
      const raw = hit[i + 1] ?? "";
      const kind = spec.args?.[name];
      if (kind === "integer") args[name] = Number(raw);
      else if (kind === "size") {
        const [amount, unit] = raw.split(" ");
        args[name] = Math.round(Number(amount) * (unit === "MiB" ? mebibyte : 1024));
      } else args[name] = raw;
    }
    return { code: reader.code, args };
  }
  return undefined;
}

/** Whether an argument is foreign text, shown quoted. */
export function isQuotedArg(code: NodeMessageCode, name: string): boolean {
  const kind = (nodeMessages[code] as Spec).args?.[name];
  return kind === "text" || kind === "token";
}
