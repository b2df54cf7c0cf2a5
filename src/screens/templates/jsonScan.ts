// A strict JSON reader that only tells where things are: the first syntax error (browsers word
// and place JSON.parse errors differently, Safari not at all) and where each value sits, by the
// same paths the template module reports problems with (`run.command[1].if`, `data["a-b"]`).

export type SyntaxProblem =
  | "value"
  | "key"
  | "colon"
  | "objectEnd"
  | "arrayEnd"
  | "stringEnd"
  | "escape"
  | "control"
  | "number"
  | "trailing";

export interface Span {
  /** Where the member's key starts (objects) or the element starts (arrays). */
  from: number;
  /** The value's own extent. */
  start: number;
  end: number;
}

export interface Scan {
  error?: { offset: number; problem: SyntaxProblem };
  spans: Map<string, Span>;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** The template module's path notation (server/templates/problems.ts `childPath`). */
export function childPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (!identifier.test(key)) return `${base}[${JSON.stringify(key)}]`;
  return base ? `${base}.${key}` : key;
}

class Fail {
  constructor(
    readonly offset: number,
    readonly problem: SyntaxProblem,
  ) {}
}

export function scanJson(text: string): Scan {
  const spans = new Map<string, Span>();
  let i = 0;

  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (problem: SyntaxProblem, at = i): never => {
    throw new Fail(at, problem);
  };

  const string = (): string => {
    const begin = i;
    i++; // opening quote
    let out = "";
    while (true) {
      if (i >= text.length) fail("stringEnd", begin);
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c < " ") fail("control");
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) fail("escape");
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (e === undefined || !(e in simple)) fail("escape");
        out += simple[e];
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
  };

  const value = (path: string, from: number): void => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") i++;
      else
        while (true) {
          ws();
          if (text[i] !== '"') fail("key");
          const keyAt = i;
          const key = string();
          ws();
          if (text[i] !== ":") fail("colon");
          i++;
          value(childPath(path, key), keyAt);
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "}") {
            i++;
            break;
          }
          fail("objectEnd");
        }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") i++;
      else
        for (let n = 0; ; n++) {
          ws();
          value(childPath(path, n), i);
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "]") {
            i++;
            break;
          }
          fail("arrayEnd");
        }
    } else if (c === '"') {
      string();
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m || m[0] === "-") fail("number", start);
      i += m![0].length;
      if (/[\d.eE+-]/.test(text[i] ?? "")) fail("number", start);
    } else {
      const word = ["true", "false", "null"].find((w) => text.startsWith(w, i));
      if (!word) fail("value");
      i += word!.length;
    }
    spans.set(path, { from, start, end: i });
  };

  try {
    ws();
    value("", i);
    ws();
    if (i < text.length) fail("trailing");
  } catch (e) {
    if (e instanceof Fail) return { error: { offset: e.offset, problem: e.problem }, spans };
    throw e;
  }
  return { spans };
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/**
 * Where a problem's path is in the text: its value, or failing that its nearest parent that
 * exists (a missing field is reported at the object that lacks it).
 */
export function spanOfPath(spans: Map<string, Span>, path: string): Span | undefined {
  let p = path;
  while (true) {
    const found = spans.get(p);
    if (found) return found;
    if (!p) return undefined;
    p = parentPath(p);
  }
}

function parentPath(path: string): string {
  if (path.endsWith("]")) {
    // `a[3]` or `a["x.y"]`: drop the bracket part (quoted keys may contain `[`).
    const quoted = /\["(?:[^"\\]|\\.)*"\]$/.exec(path);
    return path.slice(0, quoted ? quoted.index : path.lastIndexOf("["));
  }
  const dot = path.lastIndexOf(".");
  return dot < 0 ? "" : path.slice(0, dot);
}
