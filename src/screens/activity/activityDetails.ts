import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { errorMessage } from "../../i18n/errorMessages";
import { formatBytes } from "../servers/format";
import { scopeLabel } from "../servers/scopes/scopeLabels";
import { type TriggerKind, triggerLabel } from "../servers/tasks/taskTriggers";
import { globalScopeGroups } from "../users/globalScopeLabels";

// An entry's details (already stripped of secrets by the server) as fields people read: known
// keys in the page's words, permissions as the permission pickers name them, and what a change
// replaced (`details.before`, under the same keys) beside what it set.

/** A value as shown, with the raw one on hover where the words hide it (a scope's code). */
export interface Shown {
  text: string;
  title?: string;
}

export interface DetailField {
  key: string;
  label: string;
  /** A scalar: its value, and what it was before when the change replaced one. */
  value?: Shown;
  before?: Shown;
  /** A list compared with the one it replaced: what came and what went (else `value` holds it). */
  added?: Shown[];
  removed?: Shown[];
}

const redacted = "[redacted]";
const scopeKeys = new Set(["scopes", "missingScope"]);
const globalLabels = new Map(
  globalScopeGroups.flatMap((g) => g.scopes.map((s) => [s.scope, s.label] as const)),
);

function keyLabel(key: string): string {
  const labels: Record<string, string> = {
    name: t`Name`,
    scopes: t`Permissions`,
    missingScope: t`Missing permission`,
    command: t`Command`,
    variables: t`Variables`,
    type: t`Type`,
    events: t`Events`,
    host: t`Host`,
    port: t`Port`,
    username: t`Username`,
    email: t`Email`,
    password: t`Password`,
    error: t`Error`,
    otp: t`With a one-time code`,
    task: t`Task`,
    trigger: t`Trigger`,
    run: t`Run`,
    started: t`Started at`,
    message: t`Message`,
    via: t`Through`,
    bytes: t`Size`,
    folder: t`Folder`,
    to: t`To`,
    target: t`Link target`,
    route: t`API call`,
    query: t`Query`,
    node: t`Node`,
    memory: t`Memory`,
    cpu: t`CPU`,
    disk: t`Disk`,
  };
  return labels[key] ?? key;
}

function scopeShown(scope: string): Shown {
  const label: MessageDescriptor | undefined = scopeLabel(scope) ?? globalLabels.get(scope);
  return label ? { text: i18n._(label), title: scope } : { text: scope };
}

/** An error code in words when its message needs nothing the log did not keep (no placeholders). */
function errorShown(code: string): Shown {
  const message = errorMessage(code);
  if (!message?.message || message.message.includes("{")) return { text: code };
  return { text: i18n._(message), title: code };
}

/** A value short and readable: lists joined, an object as `name: value` pairs, never raw JSON. */
function shown(key: string, value: unknown, locale: string, depth = 0): Shown {
  if (value === redacted) return { text: t`hidden` };
  if (value === null || value === undefined || value === "") return { text: "—" };
  if (typeof value === "boolean") return { text: value ? t`yes` : t`no` };
  if (scopeKeys.has(key) && typeof value === "string") return scopeShown(value);
  if (key === "error" && typeof value === "string") return errorShown(value);
  if (key === "trigger" && typeof value === "string")
    return { text: value === "manual" ? t`Run by hand` : (triggerLabel(value as TriggerKind) ?? value) };
  if (key === "via" && value === "sftp") return { text: t`SFTP` };
  if (key === "bytes" && typeof value === "number") return { text: formatBytes(value, locale) };
  if (key === "started" && typeof value === "string" && !Number.isNaN(Date.parse(value)))
    return {
      text: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(
        new Date(value),
      ),
    };
  if (typeof value === "number") return { text: new Intl.NumberFormat(locale).format(value) };
  if (typeof value === "string") return { text: value };
  if (Array.isArray(value)) {
    const items = value.map((item) => shown(key, item, locale, depth + 1));
    const titles = items.map((i) => i.title ?? i.text);
    const hover = items.some((i) => i.title);
    const list = new Intl.ListFormat(locale, { type: "conjunction" });
    return { text: list.format(items.map((i) => i.text)), title: hover ? titles.join(", ") : undefined };
  }
  if (depth >= 1) return { text: "…" };
  const pairs = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${keyLabel(k)}: ${shown(k, v, locale, depth + 1).text}`,
  );
  return { text: pairs.join(", ") };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The details as fields, in the order the server wrote them. */
export function detailFields(details: Record<string, unknown>, locale: string): DetailField[] {
  const { before: rawBefore, ...rest } = details;
  const before =
    rawBefore && typeof rawBefore === "object" && !Array.isArray(rawBefore)
      ? (rawBefore as Record<string, unknown>)
      : {};
  return Object.entries(rest).map(([key, value]): DetailField => {
    const field: DetailField = { key, label: keyLabel(key) };
    const was = before[key];
    if (Array.isArray(value) && Array.isArray(was) && !same(value, was)) {
      field.added = value.filter((v) => !was.some((w) => same(v, w))).map((v) => shown(key, v, locale, 1));
      field.removed = was.filter((w) => !value.some((v) => same(v, w))).map((w) => shown(key, w, locale, 1));
      return field;
    }
    field.value = shown(key, value, locale);
    if (key in before && !same(was, value)) field.before = shown(key, was, locale);
    return field;
  });
}

/**
 * The known parts of a subject (`email:ann@example.com`, `repo:main name:minecraft`) in words;
 * nothing when the details say the same (a rename's `name:` is its new name, shown there).
 */
export function subjectText(
  subject: string,
  details: Record<string, unknown> = {},
  /** The name of the user or node it is (`user:3` → their name), when the list knows it. */
  name?: string | null,
): string {
  const names: Record<string, string> = {
    user: t`User`,
    node: t`Node`,
    email: t`Email`,
    name: t`Name`,
    key: t`Setting`,
    repo: t`Repository`,
    clientId: t`OAuth client`,
    taskId: t`Task`,
    task: t`Task`,
    backupId: t`Backup`,
    dbId: t`Database`,
  };
  const parts = subject.split(/ (?=[A-Za-z]+:)/);
  if (!parts.every((p) => /^[A-Za-z]+:/.test(p) && p.slice(0, p.indexOf(":")) in names)) return subject;
  const pairs = parts.map((p) => [p.slice(0, p.indexOf(":")), p.slice(p.indexOf(":") + 1)] as const);
  if (pairs.every(([key, value]) => details[key] === value)) return "";
  if (name && pairs.length === 1) return `${names[pairs[0][0]]}: ${name}`;
  return pairs.map(([key, value]) => `${names[key]}: ${value}`).join(" · ");
}
