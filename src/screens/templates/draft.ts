import { isEgg } from "../../../server/templates/egg.ts";
import { scanJson } from "./jsonScan";

// The editor's document: the JSON text is the truth; the form reads its common fields from the
// parsed text and writes a change back into the text in place (the rest of the user's
// formatting stays), re-printing the whole document only when a key appears or goes.

export type Doc = Record<string, unknown>;

export const COMMON_FIELDS = ["display", "type", "icon", "command", "stop", "stopCode"] as const;
export type CommonField = (typeof COMMON_FIELDS)[number];
export type CommonValues = Record<CommonField, string>;

/** Where each form field lives in the document, as the template module's problem paths. */
export const FIELD_PATHS: Record<CommonField, string> = {
  display: "display",
  type: "type",
  icon: "icon",
  command: "run.command",
  stop: "run.stop",
  stopCode: "run.stopCode",
};

/** The smallest valid template (what a new one starts from). */
export function minimalTemplate(): Doc {
  return {
    type: "",
    display: "",
    run: { command: "" },
    environment: { type: "host" },
    data: {},
    install: [],
  };
}

export const printDoc = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

const KEY_ORDER = [
  "type",
  "display",
  "icon",
  "data",
  "groups",
  "install",
  "uninstall",
  "run",
  "environment",
  "supportedEnvironments",
  "requirements",
  "stats",
  "query",
];

/** The document with its keys in reading order (the panel stores them in its own order). */
export function inReadingOrder(doc: Doc): Doc {
  const out: Doc = {};
  for (const key of KEY_ORDER) if (key in doc) out[key] = doc[key];
  for (const [key, value] of Object.entries(doc)) if (!(key in out)) out[key] = value;
  return out;
}

/** The panel's fields that a fetched template carries and a stored one must not. */
export function withoutPanelFields(doc: Doc): Doc {
  const { name, readme: _r, id: _i, node: _no, users: _u, ...rest } = doc;
  // An egg's `name` is its display name (the panel converts the egg on save), not the panel's field.
  return isEgg(doc) ? { name, ...rest } : rest;
}

export const isObject = (v: unknown): v is Doc => typeof v === "object" && v !== null && !Array.isArray(v);

const shown = (v: unknown) =>
  v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);

/** True when run.command is the conditional list: the form cannot show it as one line. */
export const commandIsList = (doc: Doc) => isObject(doc.run) && Array.isArray(doc.run.command);

export function readCommon(doc: Doc): CommonValues {
  const run = isObject(doc.run) ? doc.run : {};
  return {
    display: shown(doc.display),
    type: shown(doc.type),
    icon: shown(doc.icon),
    command: Array.isArray(run.command) ? "" : shown(run.command),
    stop: shown(run.stop),
    stopCode: shown(run.stopCode),
  };
}

/** What a form value becomes in the document; undefined removes the key. */
function toJson(field: CommonField, value: string): unknown {
  if (field === "stopCode") {
    if (!value.trim()) return undefined;
    // Not a number: kept as typed, so the check below the field says what is wrong.
    return /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  }
  if ((field === "icon" || field === "stop") && value === "") return undefined;
  return value;
}

/** The text with one common field changed. `doc` is `text` parsed. */
export function applyCommon(text: string, doc: Doc, field: CommonField, value: string): string {
  const next = toJson(field, value);
  const path = FIELD_PATHS[field];
  const span = scanJson(text).spans.get(path);
  if (span && next !== undefined) {
    return text.slice(0, span.start) + JSON.stringify(next) + text.slice(span.end);
  }
  const changed = { ...doc };
  if (path.startsWith("run.")) {
    const run: Doc = isObject(doc.run) ? { ...doc.run } : {};
    setOrDelete(run, path.slice(4), next);
    changed.run = run;
  } else setOrDelete(changed, path, next);
  return printDoc(changed);
}

function setOrDelete(target: Doc, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}
