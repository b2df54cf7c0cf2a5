import { readFileSync } from "node:fs";
import path from "node:path";
import type { NotificationEvent } from "../../contract/api/notifications.ts";
import { repoRoot } from "../../repo-root.ts";

/**
 * What each alert says, in its recipient's language (issue 41). The English is here; each locale's
 * is in locales/<locale>/alerts.json, the same keys (`npm run i18n:check` wants every one, with the
 * same placeholders). A text has a title and a message; `messageWithDetail` is the message when a
 * reason or figure goes with it (`{detail}`, quoted as the system said it), `messageOnNode` when
 * the node is known.
 */
export interface AlertTexts {
  title: string;
  message: string;
  messageWithDetail?: string;
  messageOnNode?: string;
}

export const ALERT_TEXTS_FILE = "alerts.json";

/** What an alert is about: an event, or the test a channel's owner sends (`{server}` is then the panel's name). */
export type AlertKind = NotificationEvent | "test";

export const englishAlertTexts: Record<AlertKind, AlertTexts> = {
  "server.crashed": {
    title: "{server} crashed",
    message: "The server {server} stopped without being asked to.",
    messageOnNode: "The server {server} on node {node} stopped without being asked to.",
  },
  "server.installFailed": {
    title: "Install of {server} failed",
    message: "The install of the server {server} failed.",
    messageWithDetail: "The install of the server {server} failed: {detail}",
  },
  "server.unresponsive": {
    title: "{server} stopped answering",
    message: "The server {server} ran but did not answer its query, so it was restarted.",
    messageWithDetail:
      "The server {server} kept not answering its query ({detail}), so it was stopped and left stopped.",
  },
  "backup.failed": {
    title: "Backup of {server} failed",
    message: "A backup of the server {server} failed.",
    messageWithDetail: "A backup of the server {server} failed: {detail}",
  },
  "task.failed": {
    title: "A task of {server} failed",
    message: "A task of the server {server} failed.",
    messageWithDetail: "A task of the server {server} failed: {detail}",
  },
  "disk.nearLimit": {
    title: "{server} is near its disk limit",
    message: "The server {server} uses 90 % or more of its disk limit.",
    messageWithDetail: "The server {server} uses 90 % or more of its disk limit ({detail}).",
  },
  "node.unreachable": {
    title: "Node {node} cannot be reached",
    message: "The panel cannot reach the node {node}; its servers cannot be managed until it answers again.",
  },
  "account.newDevice": {
    title: "New sign-in to your account",
    message:
      "Your account was signed in to from a new device. If this was not you, change your password now.",
    messageWithDetail:
      "Your account was signed in to from a new device ({detail}). If this was not you, change your password now.",
  },
  test: {
    title: "Test alert from {server}",
    message: "This is a test. Alerts you chose for this channel will arrive like this one.",
  },
};

type LocaleTexts = Partial<Record<AlertKind, Partial<AlertTexts>>>;

const localesDir = path.join(repoRoot, "locales");
/** Each locale's file, read at its first alert and kept (a few KiB); null where there is none. */
const loaded = new Map<string, LocaleTexts | null>();

/** One locale's texts as its file has them (undefined where there is no file or it is not JSON). */
export function readAlertTexts(locale: string, dir = localesDir): LocaleTexts | undefined {
  if (!/^[a-z]{2,3}_[A-Z0-9]{2,3}$/.test(locale)) return undefined;
  try {
    return JSON.parse(readFileSync(path.join(dir, locale, ALERT_TEXTS_FILE), "utf8")) as LocaleTexts;
  } catch {
    return undefined;
  }
}

function textsOf(locale: string | undefined): LocaleTexts | undefined {
  if (!locale || locale === "en_US") return undefined;
  if (!loaded.has(locale)) loaded.set(locale, readAlertTexts(locale) ?? null);
  return loaded.get(locale) ?? undefined;
}

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(server|node|detail)\}/g, (_, name: string) => values[name] ?? "");

/**
 * The title and message of an event in a locale (a catalog name such as de_DE; English where the
 * locale or one of its texts is missing).
 */
export function alertText(
  event: AlertKind,
  locale: string | undefined,
  values: { server: string; node: string; detail: string },
): { title: string; message: string } {
  const english = englishAlertTexts[event];
  const local = textsOf(locale)?.[event] ?? {};
  const pick = (key: keyof AlertTexts) => local[key] || english[key];
  const message =
    (values.detail && pick("messageWithDetail")) ||
    (values.node && pick("messageOnNode")) ||
    pick("message") ||
    "";
  return { title: fill(pick("title") ?? "", values), message: fill(message, values) };
}
