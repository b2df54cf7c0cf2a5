import { templateErrors } from "./errors.ts";
import { splitCommandLine } from "./shell-words.ts";
import type { TokenValues } from "./tokens.ts";

/**
 * What a text that takes `${}` tokens is, and so what a user's value may do in it.
 * - `text`: plain text (a file's contents, an environment value, a password);
 * - `line`: one line written to the console (stop text, console step);
 * - `path`: a file path in the server folder (the sandbox keeps it there);
 * - `url`: a URL the node fetches (a value comes after the host, so it cannot choose the host);
 * - `command`: a command line that is split into words afterwards (splitCommandLine).
 */
export type TokenRole = "text" | "line" | "path" | "url" | "command";

/**
 * Whose values are a user's: a server user with `server.data.edit` sets the variables marked
 * userEdit. The other values (the template's defaults, what the server's creator or an
 * administrator set) are the definition's own text, substituted as they always were; a
 * user's value stays one value: never more words, an option, a path out of the folder or a
 * second console line.
 */
export type UserValueNames = ReadonlySet<string>;

const token = /\$\{([^}]*)\}/g;
/** Control characters and line separators: a newline would end a console line or a config file's line. */
export const controlCharacter = /[\p{Cc}\u2028\u2029]/u;
const parentSegment = /(^|[/\\])\.\.($|[/\\])/;
const number = /^[+-]?\d+(\.\d+)?$/;
/** A URL whose host is already fixed by what precedes the value. */
const urlWithHost = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+[/?#]/i;

function refuseValue(name: string, problem: string): never {
  throw templateErrors.variableInvalid(name, problem);
}

/**
 * Checks that hold for a user's value wherever it goes. A `..` segment is refused in plain
 * text too: a config file may make a path of it (Terraria's `world=${rootDir}/worlds/${worldname}.wld`).
 */
function checkAnywhere(name: string, value: string): void {
  if (controlCharacter.test(value)) refuseValue(name, "may not contain control characters or line breaks");
  if (parentSegment.test(value)) refuseValue(name, "may not contain a .. path segment");
}

/**
 * Replaces `${name}` tokens in a text of the given role (see replaceTokens for the token
 * rules). Values named in `userValues` are checked for the role, and in a command line quoted
 * so that splitting keeps each one a single value.
 */
export function substituteTokens(
  text: string,
  values: TokenValues,
  role: TokenRole,
  userValues: UserValueNames,
): string {
  if (!text.includes("${")) return text;
  if (role === "command") return substituteCommandLine(text, values, userValues);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(token)) {
    const name = match[1];
    const index = match.index ?? 0;
    out += text.slice(last, index);
    last = index + match[0].length;
    if (!Object.hasOwn(values, name)) {
      out += match[0];
      continue;
    }
    const value = String(values[name]);
    if (userValues.has(name)) {
      checkAnywhere(name, value);
      if (role === "url" && value !== "" && !urlWithHost.test(out)) {
        refuseValue(name, "may not choose the host a URL points to");
      }
    }
    out += value;
  }
  return out + text.slice(last);
}

/**
 * Where splitCommandLine would be after reading the text so far: inside which quote,
 * after a backslash, how long the current word is and how many words are done.
 */
class LineState {
  quote: "'" | '"' | undefined;
  escaped = false;
  wordLength = 0;
  started = false;
  words = 0;

  feed(text: string): void {
    for (const char of text) this.feedChar(char);
  }

  private feedChar(char: string): void {
    if (this.escaped) {
      this.escaped = false;
      if (this.quote === '"') {
        this.wordLength += '"\\$`\n'.includes(char) ? (char === "\n" ? 0 : 1) : 2;
      } else if (char !== "\n") {
        this.wordLength++;
        this.started = true;
      }
    } else if (this.quote === "'") {
      if (char === "'") this.quote = undefined;
      else this.wordLength++;
    } else if (this.quote === '"') {
      if (char === '"') this.quote = undefined;
      else if (char === "\\") this.escaped = true;
      else this.wordLength++;
    } else if (char === "\\") {
      this.escaped = true;
    } else if (char === "'" || char === '"') {
      this.quote = char;
      this.started = true;
    } else if (/\s/.test(char)) {
      if (this.started) this.words++;
      this.started = false;
      this.wordLength = 0;
    } else {
      this.wordLength++;
      this.started = true;
    }
  }

  /** A value written as it is meant, quoted for where it lands. */
  quoted(value: string): string {
    if (this.quote === "'") return value.replaceAll("'", `'\\''`);
    if (this.quote === '"') return value.replace(/["\\$`]/g, "\\$&");
    return value.replace(/[\s\S]/g, "\\$&");
  }

  /** Records a value written with quoted(): it adds to the current word and changes no quote. */
  took(value: string): void {
    this.wordLength += value.length;
    if (value !== "" && this.quote === undefined) this.started = true;
  }
}

/**
 * A command line with its tokens filled so that splitCommandLine gives the words the template
 * wrote: the definition's values are text of the line (`${jvmArgs}` may stand for several
 * arguments, an empty `${flag}` for none, as in the reference), a user's value is quoted into
 * the word it stands in. Such a value may not start a word with an option sign (`-`, `+`) unless
 * it is a number, nor start one with `/`, nor hold a `..` segment; in the program's own word it
 * may only add letters, digits, `.`, `_` and `-` after the template's text; and it may not be
 * part of the script a shell runs (`sh -c '…'`), where it would be code again.
 */
function substituteCommandLine(line: string, values: TokenValues, userValues: UserValueNames): string {
  const state = new LineState();
  let out = "";
  let last = 0;
  /** Which word each user's value went into, for the shell check once the line is whole. */
  const placed: { name: string; word: number }[] = [];
  const text = (part: string) => {
    state.feed(part);
    out += part;
  };
  for (const match of line.matchAll(token)) {
    const name = match[1];
    const index = match.index ?? 0;
    text(line.slice(last, index));
    last = index + match[0].length;
    if (!Object.hasOwn(values, name)) {
      text(match[0]);
      continue;
    }
    const value = String(values[name]);
    if (!userValues.has(name)) {
      text(value);
      continue;
    }
    checkAnywhere(name, value);
    if (state.escaped) refuseValue(name, "follows a backslash in the command line");
    const atWordStart = state.wordLength === 0;
    if (state.words === 0 && value !== "") {
      if (atWordStart) refuseValue(name, "may not name the program to run");
      if (!/^[\w.-]*$/.test(value))
        refuseValue(name, "may only add letters, digits, . _ - to the program's name");
    }
    if (atWordStart && /^[-+]/.test(value) && !number.test(value)) {
      refuseValue(name, "may not start with - or + (it would become an option)");
    }
    if (atWordStart && /^[/\\]/.test(value)) refuseValue(name, "may not be an absolute path");
    out += state.quoted(value);
    placed.push({ name, word: state.words });
    state.took(value);
  }
  text(line.slice(last));
  if (placed.length > 0) refuseShellScripts(splitCommandLine(out), placed);
  return out;
}

const shells = /^(sh|bash|dash|ash|ksh|mksh|zsh|busybox)$/;
/** An option word that holds `c`: `-c`, `-ec`, `-lc`; the word after it is the script. */
const scriptOption = /^-[a-zA-Z]*c[a-zA-Z]*$/;

/**
 * A value inside a shell's script would run as code, quoted or not. After the script it is
 * a positional parameter, which is safe: `sh -c 'echo "$1"' sh ${name}`.
 */
function refuseShellScripts(argv: string[], placed: { name: string; word: number }[]): void {
  const program = argv[0]?.split("/").pop() ?? "";
  if (!shells.test(program)) return;
  const option = argv.findIndex((word, index) => index > 0 && scriptOption.test(word));
  if (option < 0) return;
  const inScript = placed.find(({ word }) => word === option + 1);
  if (inScript) {
    refuseValue(
      inScript.name,
      "may not go into a shell script: the template should pass it after the script, as $1",
    );
  }
}
