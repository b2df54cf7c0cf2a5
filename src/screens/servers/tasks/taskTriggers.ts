import { t } from "@lingui/core/macro";
import { nextRuns, parseCron } from "../../../../server/templates/cron.ts";
import type { TaskView as Task } from "../../../api/tasks";

// What a task is made of, in the words the editor, the list and the run history share.

export type TriggerKind = "schedule" | "event" | "console" | "manual";
export type EditedOperation = Record<string, unknown> & { type: string };

export const events = ["started", "stopped", "crashed", "installed", "backupFailed"] as const;
export const operationTypes = [
  "console",
  "command",
  "writefile",
  "sleep",
  "download",
  "start",
  "stop",
  "restart",
  "kill",
  "backup",
] as const;

export const eventLabel = (event: string): string =>
  ({
    started: t`Server started`,
    stopped: t`Server stopped`,
    crashed: t`Server crashed`,
    installed: t`Server installed`,
    backupFailed: t`Backup failed`,
  })[event] ?? event;

export const triggerLabel = (kind: TriggerKind): string =>
  ({
    schedule: t`On a schedule`,
    event: t`On an event`,
    console: t`On a console line`,
    manual: t`Only when run by hand`,
  })[kind];

export const kindOf = (task: Pick<Task, "cronSchedule" | "event" | "consoleMatch">): TriggerKind =>
  task.cronSchedule ? "schedule" : task.event ? "event" : task.consoleMatch ? "console" : "manual";

/** The next five runs of a schedule in the server's time zone, or undefined when it is not valid or never runs. */
export function upcoming(cron: string, timeZone: string): number[] | undefined {
  try {
    const runs = nextRuns(parseCron(cron, timeZone), Date.now(), 5);
    return runs.length > 0 ? runs : undefined;
  } catch {
    return undefined;
  }
}

export const validPattern = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};
