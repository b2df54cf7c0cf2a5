import { t } from "@lingui/core/macro";

// The node's own console lines (server/daemon: "[DAEMON] Starting server" …). The node writes them
// in English into the one console stream every client reads (PufferPanel's client shows them as
// they are); each has a code here, by which this client shows it in the page's language. Text that
// is not ours (git's, the system's reason, a path, a command) stays as it came and is shown quoted.

/** Stands for the n-th quoted part inside a translated sentence; never in real console text. */
const slot = (n: number) => `\uE000${n}\uE000`;

type Words = (...args: string[]) => string;

/**
 * code → the English the node writes (exact, its variable parts as groups), the words shown here,
 * and which groups are foreign text, shown quoted (the others are numbers, sizes, signals).
 */
const messages: Record<string, { en: RegExp; words: Words; quoted?: readonly number[] }> = {
  starting: { en: /^Starting server$/, words: () => t`Starting server` },
  stopRequested: { en: /^Server was told to stop$/, words: () => t`Server was told to stop` },
  stopTimeout: {
    en: /^Server did not stop in time, killing it$/,
    words: () => t`Server did not stop in time, killing it`,
  },
  installing: { en: /^Installing server$/, words: () => t`Installing server` },
  installed: { en: /^Server installed$/, words: () => t`Server installed` },
  installFailed: {
    en: /^Install failed: (.+)$/,
    words: (reason) => t`Install failed: ${reason}`,
    quoted: [0],
  },
  exited: { en: /^Server exited with code (-?\d+)$/, words: (code) => t`Server exited with code ${code}` },
  crashed: {
    en: /^Server exited with code (-?\d+) \(crash\)$/,
    words: (code) => t`Server exited with code ${code} (crash)`,
  },
  signalled: { en: /^Server was ended by ([A-Z0-9]+)$/, words: (signal) => t`Server was ended by ${signal}` },
  memoryKilledAt: {
    en: /^Server was killed: it went over its memory limit \((\d+) MiB\) \(crash\)$/,
    words: (mib) => t`Server was killed: it went over its memory limit (${mib} MiB) (crash)`,
  },
  memoryKilled: {
    en: /^Server was killed: it went over its memory limit \(crash\)$/,
    words: () => t`Server was killed: it went over its memory limit (crash)`,
  },
  containerMemoryKilled: {
    en: /^The server went over its memory limit and was killed$/,
    words: () => t`The server went over its memory limit and was killed`,
  },
  limitsFailed: {
    en: /^Could not apply the server's limits: (.+)$/,
    words: (reason) => t`Could not apply the server's limits: ${reason}`,
    quoted: [0],
  },
  cgroupRemoveFailed: {
    en: /^Could not remove the server's cgroup: (.+)$/,
    words: (reason) => t`Could not remove the server's cgroup: ${reason}`,
    quoted: [0],
  },
  postFailed: {
    en: /^Post steps failed: (.+)$/,
    words: (reason) => t`Post steps failed: ${reason}`,
    quoted: [0],
  },
  crashLimit: {
    en: /^Server crashed (\d+) times in a row; not restarting it$/,
    words: (count) => t`Server crashed ${count} times in a row; not restarting it`,
  },
  restartAfterExit: {
    en: /^Restarting after a graceful exit$/,
    words: () => t`Restarting after a graceful exit`,
  },
  restartAfterCrash: {
    en: /^Restarting after a crash \((\d+) of (\d+)\)$/,
    words: (count, limit) => t`Restarting after a crash (${count} of ${limit})`,
  },
  restartFailed: {
    en: /^Restart failed: (.+)$/,
    words: (reason) => t`Restart failed: ${reason}`,
    quoted: [0],
  },
  couldNotStart: {
    en: /^could not start (.+?): (.+)$/,
    words: (command, reason) => t`Could not start ${command}: ${reason}`,
    quoted: [0, 1],
  },
  containerLost: {
    en: /^Lost the container: (.+)$/,
    words: (reason) => t`Lost the container: ${reason}`,
    quoted: [0],
  },
  containerRemoveFailed: {
    en: /^Could not remove the container: (.+)$/,
    words: (reason) => t`Could not remove the container: ${reason}`,
    quoted: [0],
  },
  taskPatternPaused: {
    en: /^Task "(.*)": its console pattern took too long and is paused for a minute$/,
    words: (task) => t`Task ${task}: its console pattern took too long and is paused for a minute`,
    quoted: [0],
  },
  backingUp: { en: /^Backing up server$/, words: () => t`Backing up server` },
  backupLeftOut: {
    en: /^Backup left out (.+?): (.+)$/,
    words: (place, reason) => t`Backup left out ${place}: ${reason}`,
    quoted: [0, 1],
  },
  backupDone: { en: /^Backup complete$/, words: () => t`Backup complete` },
  backupFailed: { en: /^Backup failed: (.+)$/, words: (reason) => t`Backup failed: ${reason}`, quoted: [0] },
  restoring: { en: /^Restoring backup$/, words: () => t`Restoring backup` },
  restored: { en: /^Backup restored$/, words: () => t`Backup restored` },
  restoreFailed: {
    en: /^Restore failed: (.+)$/,
    words: (reason) => t`Restore failed: ${reason}`,
    quoted: [0],
  },
  // Install steps.
  executing: { en: /^Executing: (.+)$/, words: (command) => t`Running: ${command}`, quoted: [0] },
  downloadingUrl: {
    en: /^Downloading (\S+:\/\/\S+)$/,
    words: (url) => t`Downloading ${url}`,
    quoted: [0],
  },
  downloadingFile: {
    en: /^Downloading file (.+)$/,
    words: (url) => t`Downloading ${url}`,
    quoted: [0],
  },
  downloadProgressOf: {
    en: /^Downloading (.+): (\d+\.\d [KM]iB) of (\d+\.\d [KM]iB) \((\d+)%\)$/,
    words: (what, done, total, percent) => t`Downloading ${what}: ${done} of ${total} (${percent}%)`,
    quoted: [0],
  },
  downloadProgress: {
    en: /^Downloading (.+): (\d+\.\d [KM]iB)$/,
    words: (what, done) => t`Downloading ${what}: ${done}`,
    quoted: [0],
  },
  downloaded: {
    en: /^Downloaded (.+) to (.+)$/,
    words: (url, file) => t`Downloaded ${url} to ${file}`,
    quoted: [0, 1],
  },
  cachedCopy: {
    en: /^Using the cached copy of (.+)$/,
    words: (url) => t`Using the cached copy of ${url}`,
    quoted: [0],
  },
  downloadExtract: {
    en: /^Downloading and extracting (.+)$/,
    words: (url) => t`Downloading and extracting ${url}`,
    quoted: [0],
  },
  writingFile: {
    en: /^Writing some data to file: (.+)$/,
    words: (file) => t`Writing to file ${file}`,
    quoted: [0],
  },
  changingFile: {
    en: /^Changing some data in file: (.+)$/,
    words: (file) => t`Changing file ${file}`,
    quoted: [0],
  },
  creatingFolder: {
    en: /^Creating directory: (.+)$/,
    words: (folder) => t`Creating folder ${folder}`,
    quoted: [0],
  },
  extracting: {
    en: /^Extracting (.+) to (.+)$/,
    words: (archive, folder) => t`Extracting ${archive} to ${folder}`,
    quoted: [0, 1],
  },
  moving: {
    en: /^Moving file from (.+) to (.+)$/,
    words: (from, to) => t`Moving ${from} to ${to}`,
    quoted: [0, 1],
  },
  skipping: {
    en: /^Skipping (\S+): its condition (.+) is false$/,
    words: (step, condition) => t`Skipping ${step}: its condition ${condition} is false`,
    quoted: [0, 1],
  },
  pulling: { en: /^Pulling image (.+)$/, words: (image) => t`Pulling image ${image}`, quoted: [0] },
  sleeping: { en: /^Sleeping for (.+)$/, words: (duration) => t`Waiting ${duration}`, quoted: [0] },
  sendingToConsole: {
    en: /^Sending to the console: (.+)$/,
    words: (text) => t`Sending to the console: ${text}`,
    quoted: [0],
  },
};

/** The English forms by code, for the test that holds them to what the node writes. */
export const nodeMessagePatterns: Readonly<Record<string, RegExp>> = Object.fromEntries(
  Object.entries(messages).map(([code, m]) => [code, m.en]),
);

/** A translated node line's parts: the page's words, and the foreign parts to show quoted. */
export type NodeMessagePart = string | { quoted: string };

/**
 * A node line (without its `[DAEMON] ` prefix) in the page's language, as parts; undefined for a
 * line this client has no code for (shown as it is).
 */
export function nodeMessage(text: string): NodeMessagePart[] | undefined {
  for (const m of Object.values(messages)) {
    const hit = text.match(m.en);
    if (!hit) continue;
    const args = hit.slice(1);
    const quoted = m.quoted ?? [];
    const words = m.words(...args.map((arg, i) => (quoted.includes(i) ? slot(i) : arg)));
    return words
      .split(/\uE000(\d)\uE000/)
      .map((piece, i) => (i % 2 ? { quoted: args[Number(piece)] ?? "" } : piece))
      .filter((piece) => piece !== "");
  }
  return undefined;
}
