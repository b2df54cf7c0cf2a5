import type { TaskSettings } from "../contract/node/task-wire.ts";
import { ApiError } from "../errors.ts";
import { CronError, checkTimeZone, nextRun, parseCron } from "./cron.ts";
import { isAbsent, readBoolean, readInteger, readList, readObject, readString } from "./fields.ts";
import { type Operation, operationTypes } from "./operation-kinds.ts";
import { parseOperation } from "./parse-operations.ts";
import { childPath, type Problems } from "./problems.ts";

/**
 * Scheduled tasks of a server (reference api.md §6: the node's `<id>.cron`
 * file), with what Outpost adds: event and console-match triggers, an
 * enabled switch, and operations on the server itself (start, stop,
 * restart, kill, backup that keeps the newest N it made). Pure: the node
 * validates with it before storing, the client can check a form with it.
 */

export const taskEvents = ["started", "stopped", "crashed", "installed", "backupFailed"] as const;
export type TaskEvent = (typeof taskEvents)[number];

/** Operations only a task has: they act on the server rather than in its folder. */
export const serverActionTypes = ["start", "stop", "restart", "kill"] as const;
export type TaskActionOperation = { type: (typeof serverActionTypes)[number] };
export type TaskBackupOperation = { type: "backup"; keep?: number };
export type TaskOperation = Operation | TaskActionOperation | TaskBackupOperation;

export const taskOperationTypes = [...operationTypes, ...serverActionTypes, "backup"] as const;

export interface Task {
  name: string;
  description?: string;
  enabled: boolean;
  cronSchedule?: string;
  event?: TaskEvent;
  consoleMatch?: string;
  operations: TaskOperation[];
  /**
   * The panel user whose rights the task runs with: set by the panel from the
   * caller on every save (never taken from a request), checked again when the
   * task is run by hand and when that user's rights shrink.
   */
  author?: number;
}

/** Declared once, with the node's other task shapes: the settings cross the panel↔node seam as they are. */
export type { TaskSettings };

export const taskLimits = {
  tasksPerServer: 100,
  operationsPerTask: 50,
  nameLength: 100,
  descriptionLength: 1000,
  consoleMatchLength: 200,
  maxKeep: 100,
} as const;

/** The reference's defaults (servers/scheduler.go); the time zone is the node's own. */
export function defaultTaskSettings(): TaskSettings {
  return {
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    concurrentLimit: 5,
    limitMode: "wait",
  };
}

export const taskErrors = {
  /** The first problem names the field; `problems` counts them all. */
  invalid: (problems: Problems) =>
    new ApiError(400, "ErrTaskInvalid", "task invalid at ${field}: ${problem}", {
      field: problems[0]?.path ?? "",
      problem: problems[0]?.problem ?? "invalid",
      problems: problems.length,
    }),
  notFound: () => new ApiError(404, "ErrTaskNotFound", "task not found"),
  tooMany: () =>
    new ApiError(400, "ErrTooManyTasks", "a server has at most ${max} tasks", {
      field: "tasks",
      max: taskLimits.tasksPerServer,
    }),
};

function readText(
  value: unknown,
  path: string,
  max: number,
  problems: Problems,
  required = false,
): string | undefined {
  if (required && (isAbsent(value) || value === "")) {
    problems.push({ path, problem: "is required" });
    return undefined;
  }
  const text = readString(value, path, problems);
  if (text !== undefined && text.length > max) {
    problems.push({ path, problem: `is longer than ${max} characters` });
    return undefined;
  }
  return text === "" ? undefined : text;
}

function parseTaskOperation(raw: unknown, path: string, problems: Problems): TaskOperation | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = object.type;
  if ((serverActionTypes as readonly unknown[]).includes(type)) {
    return { type: type as TaskActionOperation["type"] };
  }
  if (type === "backup") {
    const keep = readInteger(object.keep, childPath(path, "keep"), problems);
    if (keep !== undefined && (keep < 1 || keep > taskLimits.maxKeep)) {
      problems.push({
        path: childPath(path, "keep"),
        problem: `must be between 1 and ${taskLimits.maxKeep}`,
      });
      return undefined;
    }
    return keep === undefined ? { type } : { type, keep };
  }
  if (typeof type !== "string" || !(taskOperationTypes as readonly string[]).includes(type)) {
    problems.push({
      path: childPath(path, "type"),
      problem: `unknown operation type ${JSON.stringify(type)} (one of ${taskOperationTypes.join(", ")})`,
    });
    return undefined;
  }
  return parseOperation(raw, path, problems);
}

/**
 * A console-match pattern: must compile, and stays short; matching itself
 * runs under a time budget on the node (a pattern that backtracks badly is
 * cut off, not trusted).
 */
function readPattern(value: unknown, path: string, problems: Problems): string | undefined {
  const text = readText(value, path, taskLimits.consoleMatchLength, problems);
  if (text === undefined) return undefined;
  try {
    new RegExp(text);
  } catch (error) {
    problems.push({ path, problem: `is not a regular expression: ${(error as Error).message}` });
    return undefined;
  }
  return text;
}

/** Parses one task; `timeZone` is the server's, for checking that a schedule ever fires. */
export function parseTask(raw: unknown, timeZone: string): { task?: Task; problems: Problems } {
  const problems: Problems = [];
  const object = readObject(raw, "", problems);
  if (!object) {
    if (problems.length === 0) problems.push({ path: "", problem: "expected an object" });
    return { problems };
  }
  const name = readText(object.name, "name", taskLimits.nameLength, problems, true);
  const description = readText(object.description, "description", taskLimits.descriptionLength, problems);
  const enabled = readBoolean(object.enabled, "enabled", problems) ?? true;
  const cronSchedule = readText(object.cronSchedule, "cronSchedule", 200, problems);
  if (cronSchedule !== undefined) {
    try {
      if (nextRun(parseCron(cronSchedule, timeZone), Date.now()) === undefined) {
        problems.push({ path: "cronSchedule", problem: "never fires" });
      }
    } catch (error) {
      if (!(error instanceof CronError)) throw error;
      problems.push({ path: "cronSchedule", problem: error.message });
    }
  }
  const eventText = readString(object.event, "event", problems);
  let event: TaskEvent | undefined;
  if (eventText !== undefined && eventText !== "") {
    if ((taskEvents as readonly string[]).includes(eventText)) event = eventText as TaskEvent;
    else problems.push({ path: "event", problem: `must be one of ${taskEvents.join(", ")}` });
  }
  const consoleMatch = readPattern(object.consoleMatch, "consoleMatch", problems);
  const triggers = [cronSchedule, event, consoleMatch].filter((t) => t !== undefined);
  if (triggers.length > 1) {
    problems.push({
      path: event !== undefined ? "event" : "consoleMatch",
      problem: "a task has one trigger: cronSchedule, event or consoleMatch",
    });
  }
  const author = readInteger(object.author, "author", problems);
  if (author !== undefined && author < 1) problems.push({ path: "author", problem: "must be a user id" });
  const operations: TaskOperation[] = [];
  if (isAbsent(object.operations)) problems.push({ path: "operations", problem: "is required" });
  const list = readList(object.operations, "operations", problems) ?? [];
  if (list.length > taskLimits.operationsPerTask) {
    problems.push({
      path: "operations",
      problem: `has more than ${taskLimits.operationsPerTask} operations`,
    });
  }
  list.forEach((item, index) => {
    const op = parseTaskOperation(item, childPath("operations", index), problems);
    if (op) operations.push(op);
  });
  if (problems.length > 0 || name === undefined) return { problems };
  const task: Task = { name, enabled, operations };
  if (description !== undefined) task.description = description;
  if (cronSchedule !== undefined) task.cronSchedule = cronSchedule;
  if (event !== undefined) task.event = event;
  if (consoleMatch !== undefined) task.consoleMatch = consoleMatch;
  if (author !== undefined) task.author = author;
  return { task, problems };
}

/** A task, or ErrTaskInvalid (400) naming the first bad field. */
export function checkedTask(raw: unknown, timeZone: string): Task {
  const { task, problems } = parseTask(raw, timeZone);
  if (!task) throw taskErrors.invalid(problems);
  return task;
}

/** The per-server settings of the task file; unset ones keep their defaults. */
export function parseTaskSettings(raw: unknown): { settings?: TaskSettings; problems: Problems } {
  const problems: Problems = [];
  const object = isAbsent(raw) ? {} : readObject(raw, "", problems);
  if (!object) return { problems };
  const settings = defaultTaskSettings();
  const timezone = readString(object.timezone, "timezone", problems);
  if (timezone !== undefined && timezone !== "") {
    try {
      checkTimeZone(timezone);
      settings.timezone = timezone;
    } catch (error) {
      problems.push({ path: "timezone", problem: (error as Error).message });
    }
  }
  const limit = readInteger(object.concurrentLimit, "concurrentLimit", problems);
  if (limit !== undefined) {
    if (limit < 1 || limit > 100)
      problems.push({ path: "concurrentLimit", problem: "must be between 1 and 100" });
    else settings.concurrentLimit = limit;
  }
  const mode = readString(object.limitMode, "limitMode", problems);
  if (mode !== undefined && mode !== "") {
    if (mode === "wait" || mode === "skip") settings.limitMode = mode;
    else problems.push({ path: "limitMode", problem: "must be wait or skip" });
  }
  return problems.length > 0 ? { problems } : { settings, problems };
}
