/**
 * An egg's startup line as a v3 run command. Pterodactyl runs it through a
 * shell in the container after replacing `{{VAR}}` with the values, so a
 * value there is code. Here:
 * - a line with no shell syntax stays a command line: `{{VAR}}` becomes the
 *   `${VAR}` token, and substituteTokens keeps a user's value one argument
 *   (and refuses it where it would be an option, the program or a path out);
 * - a line that needs a shell runs as `sh -c '<line>'` (bash when it uses
 *   bash syntax). There, an administrator's value (`user_editable: false`,
 *   the port, memory, IP) is substituted as text, as in Pterodactyl; a user's
 *   value is read by the shell from its environment variable, quoted, so it
 *   is one word and never code.
 */

/** Egg variables that are the server's own values in Pterodactyl, and our variable for each. */
export const serverValueNames: Record<string, string> = {
  SERVER_MEMORY: "memory",
  SERVER_PORT: "port",
  SERVER_IP: "ip",
  P_SERVER_UUID: "serverId",
};

/** Characters and words that only a shell understands. */
const shellSyntax = /[;&|<>`$()*?[\]~!#{}]|\\|(^|\s)\w+=|(^|[\s;])(if|for|while|export|cd|exec|trap|until)\s/;
const bashSyntax = /\[\[|==|\bfunction\b|<\(|\bsource\b|\$'|\bdeclare\b|\blocal\b|\bpushd\b|\bshopt\b/;
const placeholder = /\{\{\s*([^{}]*?)\s*\}\}/g;

export interface StartupVariables {
  /** Names of the egg's variables. */
  known: ReadonlySet<string>;
  /** Those a server's users may edit (user_editable). */
  userEditable: ReadonlySet<string>;
}

export type StartupResult =
  | { ok: true; command: string; shell: boolean; unknown: string[] }
  | { ok: false; problem: string };

export function convertStartup(startup: string, vars: StartupVariables): StartupResult {
  const unknown: string[] = [];
  // A placeholder no variable defines is empty in Pterodactyl (an unset environment variable).
  const line = startup.trim().replace(placeholder, (match, name: string) => {
    if (vars.known.has(name) || Object.hasOwn(serverValueNames, name)) return match;
    unknown.push(name);
    return "";
  });
  if (!line) return { ok: false, problem: "is empty" };
  const withoutPlaceholders = line.replace(placeholder, "x");
  if (!shellSyntax.test(withoutPlaceholders) && !/\n/.test(line)) {
    const command = line.replace(placeholder, (_, name: string) => `\${${serverValueNames[name] ?? name}}`);
    return { ok: true, command, shell: false, unknown };
  }
  const script = shellScript(line, vars);
  const program = bashSyntax.test(withoutPlaceholders) ? "bash" : "sh";
  return { ok: true, command: `${program} -c '${script.replaceAll("'", `'\\''`)}'`, shell: true, unknown };
}

/** The line as a shell script; see the header for how each value gets in. */
function shellScript(line: string, vars: StartupVariables): string {
  let quote: "'" | '"' | undefined;
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    const rest = line.slice(i);
    const match = /^\{\{\s*([^{}]*?)\s*\}\}/.exec(rest) ?? (quote !== "'" ? /^\$\{(\w+)\}/.exec(rest) : null);
    if (match && (vars.known.has(match[1]) || Object.hasOwn(serverValueNames, match[1]))) {
      const name = match[1];
      const next = line[i + match[0].length] ?? "";
      i += match[0].length - 1;
      if (Object.hasOwn(serverValueNames, name)) out += `\${${serverValueNames[name]}}`;
      else if (!vars.userEditable.has(name)) out += `\${${name}}`;
      else out += environmentReference(name, quote, next);
      continue;
    }
    if (char === "\\" && quote !== "'") {
      out += char + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if (char === "'" && quote !== '"') quote = quote === "'" ? undefined : "'";
    else if (char === '"' && quote !== "'") quote = quote === '"' ? undefined : '"';
    out += char;
  }
  return out;
}

/** `$NAME` quoted for where it stands, so the shell reads it as one word; never the `${}` token form. */
function environmentReference(name: string, quote: "'" | '"' | undefined, next: string): string {
  if (quote === "'") return `'"$${name}"'`;
  if (quote === '"') return /\w/.test(next) ? `$${name}""` : `$${name}`;
  return `"$${name}"`;
}
