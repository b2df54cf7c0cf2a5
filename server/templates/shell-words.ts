import { templateErrors } from "./errors.ts";

/**
 * Splits a command line into argv the way a POSIX shell splits words, and
 * nothing more: no variables, globs, pipes or redirections (a `>` is just an
 * argument, as in the Go panel, which runs commands without a shell).
 * - blanks separate words;
 * - '…' keeps everything literally;
 * - "…" keeps everything, except that \ escapes " \ $ ` and newline;
 * - outside quotes \ escapes the next character (\ + newline joins lines);
 * - "" and '' make an empty argument.
 * Unlike the Go panel, quotes are removed from the argument, as a shell
 * would: `+server.hostname "My Server"` gives the program `My Server`.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && '"\\$`\n'.includes(line[i + 1] ?? "")) {
        i++;
        if (line[i] !== "\n") word += line[i];
      } else word += char;
    } else if (char === "\\") {
      i++;
      if (i >= line.length) throw templateErrors.commandLine("ends with an unfinished escape (\\)");
      if (line[i] === "\n") continue;
      word += line[i];
      started = true;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quote) throw templateErrors.commandLine(`unterminated ${quote} quote`);
  if (started) words.push(word);
  return words;
}
