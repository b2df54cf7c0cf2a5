import { readCondition } from "./conditions.ts";
import { parseConsoleConfig, parseOutputConfig } from "./console-config.ts";
import {
  assignDefined,
  readBoolean,
  readInteger,
  readObject,
  readString,
  readStringMap,
  requireField,
} from "./fields.ts";
import { parseOperations } from "./parse-operations.ts";
import { childPath, jsonType, type Problems } from "./problems.ts";
import type { Execution, RunCommandEntry } from "./types.ts";

function parseCommandEntry(raw: unknown, path: string, problems: Problems): RunCommandEntry | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const commandPath = childPath(path, "command");
  if (!requireField(object.command, commandPath, problems)) return undefined;
  const command = readString(object.command, commandPath, problems);
  if (command === undefined) return undefined;
  return assignDefined<RunCommandEntry>(
    { command },
    {
      if: readCondition(object.if, childPath(path, "if"), problems),
      stdin: parseConsoleConfig(object.stdin, childPath(path, "stdin"), problems),
    },
  );
}

function parseCommand(raw: unknown, path: string, problems: Problems): Execution["command"] | undefined {
  if (!requireField(raw, path, problems)) return undefined;
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw)) {
    problems.push({ path, problem: `expected a string or a list of {command, if}, got ${jsonType(raw)}` });
    return undefined;
  }
  if (raw.length === 0) problems.push({ path, problem: "needs at least one command" });
  return raw.flatMap((item, index) => parseCommandEntry(item, childPath(path, index), problems) ?? []);
}

function readSignal(raw: unknown, path: string, problems: Problems): number | undefined {
  const signal = readInteger(raw, path, problems);
  if (signal !== undefined && (signal < 0 || signal > 64)) {
    problems.push({ path, problem: `${signal} is not a signal number` });
    return undefined;
  }
  return signal;
}

/** How many failed queries in a row restart the server: 0 (off) to 100. */
function readWatchdogCount(raw: unknown, path: string, problems: Problems): number | undefined {
  const count = readInteger(raw, path, problems);
  if (count !== undefined && (count < 0 || count > 100)) {
    problems.push({ path, problem: "must be 0 (off) to 100" });
    return undefined;
  }
  return count;
}

export function parseExecution(raw: unknown, path: string, problems: Problems): Execution | undefined {
  const run = requireField(raw, path, problems) ? readObject(raw, path, problems) : undefined;
  if (!run) return undefined;
  const at = (key: string) => childPath(path, key);
  const command = parseCommand(run.command, at("command"), problems);
  // The other fields are read even without a command, so all their problems are reported too.
  const execution = assignDefined<Execution>(
    { command: command ?? "" },
    {
      stop: readString(run.stop, at("stop"), problems),
      stopCode: readSignal(run.stopCode, at("stopCode"), problems),
      pre: parseOperations(run.pre, at("pre"), problems),
      post: parseOperations(run.post, at("post"), problems),
      environmentVars: readStringMap(run.environmentVars, at("environmentVars"), problems),
      workingDirectory: readString(run.workingDirectory, at("workingDirectory"), problems),
      stdin: parseConsoleConfig(run.stdin, at("stdin"), problems),
      stdout: parseOutputConfig(run.stdout, at("stdout"), problems),
      autostart: readBoolean(run.autostart, at("autostart"), problems),
      autorecover: readBoolean(run.autorecover, at("autorecover"), problems),
      autorestart: readBoolean(run.autorestart, at("autorestart"), problems),
      expectedExitCode: readInteger(run.expectedExitCode, at("expectedExitCode"), problems),
      unresponsiveRestartAfter: readWatchdogCount(
        run.unresponsiveRestartAfter,
        at("unresponsiveRestartAfter"),
        problems,
      ),
    },
  );
  return command === undefined ? undefined : execution;
}
