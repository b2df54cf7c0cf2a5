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
import { childPath, isObject, jsonType, type Problems } from "./problems.ts";
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

export function parseExecution(raw: unknown, path: string, problems: Problems): Execution | undefined {
  if (!requireField(raw, path, problems)) return undefined;
  if (!isObject(raw)) {
    readObject(raw, path, problems);
    return undefined;
  }
  const at = (key: string) => childPath(path, key);
  const command = parseCommand(raw.command, at("command"), problems);
  if (command === undefined) return undefined;
  return assignDefined<Execution>(
    { command },
    {
      stop: readString(raw.stop, at("stop"), problems),
      stopCode: readSignal(raw.stopCode, at("stopCode"), problems),
      pre: parseOperations(raw.pre, at("pre"), problems),
      post: parseOperations(raw.post, at("post"), problems),
      environmentVars: readStringMap(raw.environmentVars, at("environmentVars"), problems),
      workingDirectory: readString(raw.workingDirectory, at("workingDirectory"), problems),
      stdin: parseConsoleConfig(raw.stdin, at("stdin"), problems),
      stdout: parseOutputConfig(raw.stdout, at("stdout"), problems),
      autostart: readBoolean(raw.autostart, at("autostart"), problems),
      autorecover: readBoolean(raw.autorecover, at("autorecover"), problems),
      autorestart: readBoolean(raw.autorestart, at("autorestart"), problems),
      expectedExitCode: readInteger(raw.expectedExitCode, at("expectedExitCode"), problems),
    },
  );
}
