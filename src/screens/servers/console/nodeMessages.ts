import { t } from "@lingui/core/macro";

// The node's own console lines (server/daemon: "[DAEMON] Starting server" …). The node writes them
// in English into the one console stream every client reads (PufferPanel's client shows them as
// they are); each has a code here, by which this client shows it in the page's language. Text that
// is not ours (git's, the system's reason) stays as it came and is shown quoted.

/** Stands for the quoted part inside a translated sentence; never in real console text. */
const SLOT = "\u0000";

type Words = (arg: string) => string;

/** code → the English the node writes (exact, with one `(.+)` at most) and the words shown here. */
const messages: Record<string, { en: RegExp; words: Words; quoted?: boolean }> = {
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
    quoted: true,
  },
  exited: { en: /^Server exited with code (-?\d+)$/, words: (code) => t`Server exited with code ${code}` },
  crashed: {
    en: /^Server exited with code (-?\d+) \(crash\)$/,
    words: (code) => t`Server exited with code ${code} (crash)`,
  },
  signalled: { en: /^Server was ended by ([A-Z0-9]+)$/, words: (signal) => t`Server was ended by ${signal}` },
  backingUp: { en: /^Backing up server$/, words: () => t`Backing up server` },
  backupDone: { en: /^Backup complete$/, words: () => t`Backup complete` },
  backupFailed: { en: /^Backup failed: (.+)$/, words: (reason) => t`Backup failed: ${reason}`, quoted: true },
  restoring: { en: /^Restoring backup$/, words: () => t`Restoring backup` },
  restored: { en: /^Backup restored$/, words: () => t`Backup restored` },
};

/** The English forms by code, for the test that holds them to what the node writes. */
export const nodeMessagePatterns: Readonly<Record<string, RegExp>> = Object.fromEntries(
  Object.entries(messages).map(([code, m]) => [code, m.en]),
);

/**
 * A node line (without its `[DAEMON] ` prefix) in the page's language, as text before, the quoted
 * foreign part, and text after; undefined for a line this client has no code for (shown as it is).
 */
export function nodeMessage(text: string): { before: string; quoted?: string; after: string } | undefined {
  for (const m of Object.values(messages)) {
    const hit = text.match(m.en);
    if (!hit) continue;
    if (!m.quoted) return { before: m.words(hit[1] ?? ""), after: "" };
    const [before, after = ""] = m.words(SLOT).split(SLOT);
    return { before, quoted: hit[1], after };
  }
  return undefined;
}
