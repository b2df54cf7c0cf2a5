import { i18n, type MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import {
  decodeNodeLine,
  isQuotedArg,
  type NodeMessageCode,
  nodeMessages,
} from "../../../../server/contract/node/console-messages";
import { intlLocale } from "../../../i18n/locales";
import { formatBytes } from "../format";
import { operationLabel } from "../tasks/operationLabels";

// The node's own console lines (server/daemon: "[DAEMON] Starting server" …). The node writes them
// in English through one table (server/contract/node/console-messages.ts) into the console stream every
// client reads (PufferPanel's client shows them as they are); this client reads each line's code
// back by that table and shows it in the page's language. Text that is not ours (git's, the
// system's reason, a path, a command) stays as it came and is shown quoted. A task run's `[TASK]`
// lines (its output on the tasks screen) are read by the same table.

interface Words {
  message: MessageDescriptor;
  /** Values the message takes besides the code's own arguments (a fixed name, a renamed argument). */
  values?: (args: Record<string, unknown>) => Record<string, unknown>;
}

const downloading = msg({ message: "Downloading {url}" });
/** A task operation's type by its name in the page's language, not its code. */
const operationType = (a: Record<string, unknown>) => ({ type: operationLabel(String(a.type)) });
const running = msg({ message: "Running: {command}" });

/** code → the words this client shows; several codes may share words. */
const words: Record<NodeMessageCode, Words> = {
  starting: { message: msg({ message: "Starting server" }) },
  stopRequested: { message: msg({ message: "Server was told to stop" }) },
  stopTimeout: { message: msg({ message: "Server did not stop in time, killing it" }) },
  exited: { message: msg({ message: "Server exited with code {code}" }) },
  crashed: { message: msg({ message: "Server exited with code {code} (crash)" }) },
  signalled: { message: msg({ message: "Server was ended by {signal}" }) },
  memoryKilledAt: {
    message: msg({ message: "Server was killed: it went over its memory limit ({mib} MiB) (crash)" }),
  },
  memoryKilled: { message: msg({ message: "Server was killed: it went over its memory limit (crash)" }) },
  limitsFailed: { message: msg({ message: "Could not apply the server's limits: {reason}" }) },
  cgroupRemoveFailed: { message: msg({ message: "Could not remove the server's cgroup: {reason}" }) },
  postFailed: { message: msg({ message: "Post steps failed: {reason}" }) },
  crashLimit: {
    message: msg({
      message:
        "{count, plural, one {Server crashed # time in a row; not restarting it} other {Server crashed # times in a row; not restarting it}}",
    }),
  },
  restartAfterExit: { message: msg({ message: "Restarting after a graceful exit" }) },
  restartAfterCrash: { message: msg({ message: "Restarting after a crash ({count} of {limit})" }) },
  restartFailed: { message: msg({ message: "Restart failed: {reason}" }) },
  restartUnresponsive: {
    message: msg({
      message:
        "{count, plural, one {Server did not answer its query # time in a row; restarting it} other {Server did not answer its query # times in a row; restarting it}}",
    }),
  },
  unresponsiveStopped: {
    message: msg({
      message:
        "Server kept not answering its query (restarts in the last {minutes} min: {count}); stopping it and leaving it stopped",
    }),
  },
  autostartFailed: { message: msg({ message: "Autostart failed: {reason}" }) },
  refused: { message: msg({ message: "Refused: {reason}" }) },
  couldNotStart: { message: msg({ message: "Could not start {command}: {reason}" }) },
  taskPatternPaused: {
    message: msg({ message: "Task {task}: its console pattern took too long and is paused for a minute" }),
  },
  diskNotStarting: {
    message: msg({
      message: "Not starting: the server is over its disk limit ({limit} MiB); delete files first",
    }),
  },
  diskNotInstalling: {
    message: msg({
      message: "Not installing: the server is over its disk limit ({limit} MiB); delete files first",
    }),
  },
  diskStoppingSteps: {
    message: msg({ message: "Server went over its disk limit ({limit} MiB): stopping its install steps" }),
  },
  diskStopping: {
    message: msg({
      message:
        "Server went over its disk limit ({limit} MiB): stopping it; it starts again once files are deleted",
    }),
  },
  diskKilling: { message: msg({ message: "Server is still over its disk limit ({limit} MiB), killing it" }) },
  containerMemoryKilled: {
    message: msg({ message: "The server went over its memory limit and was killed" }),
  },
  containerLost: { message: msg({ message: "Lost the container: {reason}" }) },
  containerRemoveFailed: { message: msg({ message: "Could not remove the container: {reason}" }) },
  containerStartFailed: { message: msg({ message: "Could not start the container: {reason}" }) },
  noDocker: { message: msg({ message: "No Docker engine answers on this node" }) },
  dockerIgnored: {
    message: msg({ message: "Not applied on this node (they could reach the host): {settings}" }),
  },
  imagePulling: { message: msg({ message: "Pulling image {image}" }) },
  imagePulled: { message: msg({ message: "Pulled image {image}" }) },
  imagePullFailed: { message: msg({ message: "Could not pull image {image}: {reason}" }) },
  installing: { message: msg({ message: "Installing server" }) },
  installed: { message: msg({ message: "Server installed" }) },
  installFailed: { message: msg({ message: "Install failed: {reason}" }) },
  uninstallFailed: { message: msg({ message: "Uninstall failed: {reason}" }) },
  backingUp: { message: msg({ message: "Backing up server" }) },
  backupLeftOut: { message: msg({ message: "Backup left out {place}: {reason}" }) },
  backupDone: { message: msg({ message: "Backup complete" }) },
  backupFailed: { message: msg({ message: "Backup failed: {reason}" }) },
  restoring: { message: msg({ message: "Restoring backup" }) },
  restored: { message: msg({ message: "Backup restored" }) },
  restoreFailed: { message: msg({ message: "Restore failed: {reason}" }) },
  eggInstall: { message: msg({ message: "Running the egg's install script in {image}" }) },
  eggConfigTooBig: { message: msg({ message: "Config file {file} is too big to edit; left as it is" }) },
  eggConfigFailed: {
    message: msg({ message: "Config file {file} could not be edited ({parser}): {reason}" }),
  },
  skipping: { message: msg({ message: "Skipping {step}: its condition {condition} is false" }) },
  executing: { message: running },
  downloadingFile: { message: downloading },
  downloaded: { message: msg({ message: "Downloaded {url} to {file}" }) },
  downloading: { message: downloading },
  downloadingTo: { message: downloading },
  cachedCopy: { message: msg({ message: "Using the cached copy of {url}" }) },
  downloadExtract: { message: msg({ message: "Downloading and extracting {url}" }) },
  downloadProgressOf: { message: msg({ message: "Downloading {what}: {done} of {total} ({percent}%)" }) },
  downloadProgress: { message: msg({ message: "Downloading {what}: {done}" }) },
  writingFile: { message: msg({ message: "Writing to file {file}" }) },
  changingFile: { message: msg({ message: "Changing file {file}" }) },
  creatingFolder: { message: msg({ message: "Creating folder {folder}" }) },
  extracting: { message: msg({ message: "Extracting {archive} to {folder}" }) },
  extracted: {
    message: msg({
      message:
        "{count, plural, one {Extracted # entry from {archive}} other {Extracted # entries from {archive}}}",
    }),
  },
  archiving: { message: msg({ message: "Archiving {sources} into {archive}" }) },
  archived: {
    message: msg({
      message:
        "{count, plural, one {Archived # entry into {archive}} other {Archived # entries into {archive}}}",
    }),
  },
  moving: { message: msg({ message: "Moving {from} to {to}" }) },
  nothingMoved: { message: msg({ message: "Nothing matches {pattern}; nothing was moved" }) },
  sleeping: { message: msg({ message: "Waiting {duration}" }) },
  sendingToConsole: { message: msg({ message: "Sending to the console: {text}" }) },
  javaPresent: { message: msg({ message: "{binary} is already installed" }) },
  javaLookup: { message: msg({ message: "Looking up Java {version} at {host}" }) },
  javaDownloading: { message: downloading, values: (a) => ({ url: a.release }) },
  javaInstalled: { message: msg({ message: "Installed {binary}" }) },
  minecraftMissing: { message: msg({ message: "Could not find Minecraft version {version}" }) },
  minecraftJson: { message: downloading },
  minecraftJar: { message: downloading },
  fabricMetadata: { message: downloading },
  forgeInstaller: {
    message: msg({ message: "Downloading the {loader} installer {version}" }),
    values: () => ({ loader: "Forge" }),
  },
  neoforgeInstaller: {
    message: msg({ message: "Downloading the {loader} installer {version}" }),
    values: () => ({ loader: "NeoForge" }),
  },
  loaderResolved: { message: msg({ message: "Resolved {loader} version: {version}" }) },
  steamApp: { message: msg({ message: "Downloading app {app} from Steam" }) },
  steamManifests: { message: msg({ message: "Reading the app's manifests" }) },
  steamFiles: { message: msg({ message: "Downloading the app's files" }) },
  depotDownloader: { message: downloading, values: (a) => ({ url: a.asset }) },
  modpackDownloading: { message: downloading },
  modpackExtracting: { message: msg({ message: "Extracting modpack {pack}" }) },
  modpackUnknownType: {
    message: msg({ message: "Unknown server type: the server could not be prepared to run" }),
  },
  modpackUnsupportedLoader: {
    message: msg({ message: "Unsupported mod loader {loader}: the server could not be prepared to run" }),
  },
  modpackInstalled: { message: msg({ message: "Modpack installed" }) },
  installerRunning: { message: running, values: (a) => ({ command: a.jar }) },
  installerNotDeleted: { message: msg({ message: "Could not delete the installer" }) },
  serverStarter: { message: downloading, values: () => ({ url: "ServerStarter" }) },
  taskOperation: { message: msg({ message: "Operation {number}: {type}" }), values: operationType },
  taskServerStarted: { message: msg({ message: "Server started" }) },
  taskServerStopped: { message: msg({ message: "Server stopped" }) },
  taskServerRestarted: { message: msg({ message: "Server restarted" }) },
  taskServerKilled: { message: msg({ message: "Server killed" }) },
  taskBackupMade: { message: msg({ message: "Backup {file} created" }) },
  taskBackupRemoved: {
    message: msg({
      message:
        "{keep, plural, one {Backup {file} removed (keeping # backup)} other {Backup {file} removed (keeping # backups)}}",
    }),
  },
  taskOperationTimedOut: {
    message: msg({
      message:
        "{seconds, plural, one {Operation {number} ({type}): took longer than # second} other {Operation {number} ({type}): took longer than # seconds}}",
    }),
    values: operationType,
  },
  taskOperationFailed: {
    message: msg({ message: "Operation {number} ({type}): {reason}" }),
    values: operationType,
  },
  taskRunSkipped: {
    message: msg({
      message:
        "{count, plural, one {Skipped: # run of this server's tasks is under way} other {Skipped: # runs of this server's tasks are under way}}",
    }),
  },
  taskRunWaiting: { message: msg({ message: "Waiting for another run to end" }) },
  taskRunShuttingDown: { message: msg({ message: "The node is shutting down" }) },
  taskRunCut: { message: msg({ message: "The node stopped during the run" }) },
  taskRunDisabled: { message: msg({ message: "The task was disabled or removed: this run was stopped" }) },
};

/** For the tests: the words of each code. */
export const nodeMessageWords: Readonly<Record<NodeMessageCode, Words>> = words;

/** Stands for the n-th quoted part inside a translated sentence; never in real console text. */
const slot = (n: number) => `\uE000${n}\uE000`;

/** A translated node line's parts: the page's words, and the foreign parts to show quoted. */
export type NodeMessagePart = string | { quoted: string };

/**
 * A node line (without its `[DAEMON] ` prefix) in the page's language, as parts; undefined for a
 * line of no code (shown as it is).
 */
export function nodeMessage(text: string): NodeMessagePart[] | undefined {
  const line = decodeNodeLine(text);
  if (!line) return undefined;
  const { message, values } = words[line.code];
  const quoted: string[] = [];
  const shown: Record<string, unknown> = {};
  const sizes = (nodeMessages[line.code] as { args?: Record<string, string> }).args ?? {};
  for (const [name, value] of Object.entries(line.args)) {
    if (isQuotedArg(line.code, name)) {
      shown[name] = slot(quoted.length);
      quoted.push(String(value));
    } else if (sizes[name] === "size") shown[name] = formatBytes(Number(value), intlLocale(i18n.locale));
    else shown[name] = value;
  }
  // A fixed or renamed value: a quoted argument keeps its slot under the new name.
  Object.assign(shown, values?.(shown));
  return i18n
    ._(message.id, shown, { message: message.message })
    .split(/\uE000(\d+)\uE000/)
    .map((piece, i) => (i % 2 ? { quoted: quoted[Number(piece)] ?? "" } : piece))
    .filter((piece) => piece !== "");
}
