import { substituteConsoleConfig } from "./console-config.ts";
import { conditionHolds, type ServerContext, tokenValues } from "./context.ts";
import { templateErrors } from "./errors.ts";
import { splitCommandLine } from "./shell-words.ts";
import { substituteTokens, type TokenRole } from "./substitute.ts";
import { replaceTokens, type TokenValues } from "./tokens.ts";
import type { ConsoleConfig, Execution, RunCommandEntry } from "./types.ts";

/**
 * Picks the command to start (reference §5.2, templates.md §5): a plain
 * string is the command; in a list, the first entry whose `if` holds wins,
 * else the first entry without a condition. None → ErrNoCommand.
 */
export function selectRunCommand(
  command: Execution["command"],
  holds: (condition: string) => boolean,
): RunCommandEntry {
  if (typeof command === "string") return { command };
  const conditional = command.find((entry) => entry.if?.trim() && holds(entry.if));
  const chosen = conditional ?? command.find((entry) => !entry.if?.trim());
  if (!chosen) throw templateErrors.noCommand();
  return chosen;
}

/** `run.environmentVars` with tokens replaced; command operations get them too. */
export function renderEnvironmentVars(run: Execution, tokens: TokenValues): Record<string, string> {
  return Object.fromEntries(
    Object.entries(run.environmentVars ?? {}).map(([name, value]) => [name, replaceTokens(value, tokens)]),
  );
}

/** Everything needed to start and stop the server process, rendered for one server. */
export interface RenderedRun {
  /** The chosen command line after substitution (a user's values quoted, so it splits into argv). */
  command: string;
  /** It split into program and arguments (no shell). */
  argv: string[];
  environmentVars: Record<string, string>;
  /** Relative to the server directory; v2 templates set it, the v3 runner ignores it. */
  workingDirectory?: string;
  /** Console input: the entry's own, else run.stdin, else plain stdin. */
  stdin: ConsoleConfig;
  /** Text written to the console to stop (used when stopSignal is 0), with `${}` replaced. */
  stopText: string;
  /** Signal number that stops the process; wins over stopText when non-zero. */
  stopSignal: number;
  /** Exit code that counts as graceful (default 0). */
  expectedExitCode: number;
  autostart: boolean;
  autorecover: boolean;
  autorestart: boolean;
}

/**
 * The command is split into words before a user's value goes in (substituteTokens), so
 * a value set through server.data.edit stays one argument; the definition's own values are
 * text of the line, as in the reference.
 */
export function renderRun(run: Execution, ctx: ServerContext): RenderedRun {
  const tokens = tokenValues(ctx);
  const render = (text: string, role: TokenRole) => substituteTokens(text, tokens, role, ctx.userValues);
  const entry = selectRunCommand(run.command, (condition) => conditionHolds(condition, ctx));
  const command = render(entry.command, "command");
  const argv = splitCommandLine(command);
  if (argv.length === 0) throw templateErrors.noCommand();
  const stdin = entry.stdin ?? run.stdin ?? { type: "stdin" };
  const rendered: RenderedRun = {
    command,
    argv,
    environmentVars: renderEnvironmentVars(run, tokens),
    stdin: substituteConsoleConfig(stdin, tokens, ctx.userValues),
    // The reference writes run.stop as it is; we replace its tokens like the command's, so a
    // template can let the user choose the stop command (the starter "Custom command" does).
    // A stop text without `${` (every template of the corpus) is unchanged.
    // A stop text is one console line: a user's value in it cannot add a second.
    stopText: render(run.stop ?? "", "line"),
    stopSignal: run.stopCode ?? 0,
    expectedExitCode: run.expectedExitCode ?? 0,
    autostart: run.autostart ?? false,
    autorecover: run.autorecover ?? false,
    autorestart: run.autorestart ?? false,
  };
  if (run.workingDirectory) rendered.workingDirectory = render(run.workingDirectory, "path");
  return rendered;
}
