import { boundedJson, boundedYaml, configFileBounds } from "./bounded-document.ts";
import type { EggConfigParser } from "./types.ts";
import { yaml } from "./yaml.ts";

/**
 * One egg `config.files` edit applied to a file's text, as Wings applies it
 * before each start. `find` maps a key (a line prefix, a property, `section.key`
 * for ini, a dotted path for json / yaml / xml) to its new value, tokens
 * already replaced. Keys missing from properties, ini, json and yaml files are
 * added; `file` replaces whole lines that start with the key and adds nothing.
 * A yaml file needs loadYaml() awaited first.
 */
export function editConfigText(parser: EggConfigParser, text: string, find: Record<string, unknown>): string {
  switch (parser) {
    case "properties":
      return editProperties(text, find);
    case "file":
      return editLines(text, find);
    case "ini":
      return editIni(text, find);
    case "json":
      return `${JSON.stringify(editTree(text.trim() ? boundedJson(text, configFileBounds) : {}, find), null, 2)}\n`;
    case "yaml":
      return yaml().dump(editTree(text.trim() ? boundedYaml(text, configFileBounds) : {}, find), {
        lineWidth: -1,
      });
    case "xml":
      return editXml(text, find);
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function lines(source: string): { list: string[]; newline: string } {
  const newline = source.includes("\r\n") ? "\r\n" : "\n";
  const list = source.split(/\r?\n/);
  if (list.at(-1) === "") list.pop();
  return { list, newline };
}

function editProperties(source: string, find: Record<string, unknown>): string {
  const { list, newline } = lines(source);
  const pending = new Map(Object.entries(find));
  const out = list.map((line) => {
    const match = /^\s*([^#!\s][^=:]*?)\s*[=:]/.exec(line);
    if (!match || !pending.has(match[1])) return line;
    const value = pending.get(match[1]);
    pending.delete(match[1]);
    return `${match[1]}=${text(value)}`;
  });
  for (const [key, value] of pending) out.push(`${key}=${text(value)}`);
  return out.join(newline) + newline;
}

function editLines(source: string, find: Record<string, unknown>): string {
  const { list, newline } = lines(source);
  const out = list.map((line) => {
    const key = Object.keys(find).find((prefix) => line.startsWith(prefix));
    return key === undefined ? line : text(find[key]);
  });
  return out.join(newline) + newline;
}

function editIni(source: string, find: Record<string, unknown>): string {
  const { list, newline } = lines(source);
  const wanted = Object.entries(find).map(([path, value]) => {
    const dot = path.indexOf(".");
    // `section.key`, or a key of the part before any section.
    return dot < 0
      ? { section: "", key: path, value, done: false }
      : { section: path.slice(0, dot), key: path.slice(dot + 1), value, done: false };
  });
  let section = "";
  const out: string[] = [];
  const flush = () => {
    for (const entry of wanted) {
      if (entry.done || entry.section !== section) continue;
      out.push(`${entry.key}=${text(entry.value)}`);
      entry.done = true;
    }
  };
  for (const line of list) {
    const header = /^\s*\[([^\]]*)\]\s*$/.exec(line);
    if (header) {
      flush();
      section = header[1];
      out.push(line);
      continue;
    }
    const match = /^\s*([^;#=\s][^=]*?)\s*=/.exec(line);
    const entry = match && wanted.find((e) => !e.done && e.section === section && e.key === match[1]);
    if (entry) {
      out.push(`${entry.key}=${text(entry.value)}`);
      entry.done = true;
    } else out.push(line);
  }
  flush();
  for (const entry of wanted.filter((e) => !e.done)) {
    if (entry.section !== section) {
      out.push(`[${entry.section}]`);
      section = entry.section;
    }
    out.push(`${entry.key}=${text(entry.value)}`);
    entry.done = true;
  }
  return out.join(newline) + newline;
}

/** Wings' typed values for json / yaml: true, false and numbers are written as such. */
function typed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value === "true" || value === "false") return value === "true";
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** `a.b[0].c` → ["a", "b", "0", "c"]. */
function pathOf(key: string): string[] {
  return key
    .replace(/\[(\d+|\*)\]/g, ".$1")
    .split(".")
    .filter(Boolean);
}

function editTree(root: unknown, find: Record<string, unknown>): unknown {
  const tree = typeof root === "object" && root !== null ? root : {};
  for (const [key, value] of Object.entries(find))
    setPath(tree as Record<string, unknown>, pathOf(key), typed(value));
  return tree;
}

function setPath(node: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  // `*` is every element of a list (Wings' wildcard).
  if (head === "*" && Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      if (rest.length === 0) node[i] = value;
      else if (typeof node[i] === "object" && node[i] !== null) setPath(node[i], rest, value);
    }
    return;
  }
  if (["__proto__", "constructor", "prototype"].includes(head)) return;
  if (rest.length === 0) {
    node[head] = value;
    return;
  }
  if (typeof node[head] !== "object" || node[head] === null) node[head] = /^\d+$/.test(rest[0]) ? [] : {};
  setPath(node[head] as Record<string, unknown>, rest, value);
}

const escapeXml = (value: string) =>
  value.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

/**
 * XML: the text of the element at a dotted path (`Settings.Port`), found by
 * tag names in order; a missing element is not added (an XML layout is the
 * game's own).
 */
function editXml(source: string, find: Record<string, unknown>): string {
  let out = source;
  for (const [key, value] of Object.entries(find)) {
    const path = pathOf(key.replace(/\//g, "."));
    let from = 0;
    let found = true;
    for (const tag of path.slice(0, -1)) {
      const open = new RegExp(`<${tag}(\\s[^>]*)?>`).exec(out.slice(from));
      if (!open) {
        found = false;
        break;
      }
      from += open.index + open[0].length;
    }
    const last = path.at(-1);
    if (!found || !last) continue;
    const element = new RegExp(`(<${last}(?:\\s[^>]*)?>)([^<]*)(</${last}>)`).exec(out.slice(from));
    if (!element) continue;
    const start = from + element.index;
    out = `${out.slice(0, start)}${element[1]}${escapeXml(text(value))}${element[3]}${out.slice(start + element[0].length)}`;
  }
  return out;
}
