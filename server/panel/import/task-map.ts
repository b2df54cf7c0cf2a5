import type { Task, TaskOperation } from "../../templates/tasks.ts";
import type { SourceSchedule } from "./source-panel.ts";

/**
 * A schedule and its tasks as one Outpost task: the cron kept, each task one operation in its
 * sequence, a time offset a sleep before it. `command` sends to the console, `power` starts,
 * stops, restarts or kills, `backup` makes a backup. What has no equivalent is in `notes`.
 */
export function taskOfSchedule(schedule: SourceSchedule): { task: Task; notes: string[] } {
  const notes: string[] = [];
  const operations: TaskOperation[] = [];
  for (const step of schedule.tasks) {
    if (step.offset > 0) operations.push({ type: "sleep", duration: `${step.offset}s` });
    if (step.action === "command") operations.push({ type: "console", message: step.payload });
    else if (step.action === "power" && ["start", "stop", "restart", "kill"].includes(step.payload))
      operations.push({ type: step.payload as "start" | "stop" | "restart" | "kill" });
    else if (step.action === "backup") {
      operations.push({ type: "backup" });
      if (step.payload.trim()) notes.push(`task ${step.sequence}: the backup's ignored files are not kept`);
    } else notes.push(`task ${step.sequence}: "${step.action} ${step.payload}" has no equivalent, left out`);
    if (step.continueOnFailure) notes.push(`task ${step.sequence}: "continue on failure" is not kept`);
  }
  if (schedule.onlyWhenOnline)
    notes.push(`"only when online" is not kept: a console step fails while the server is off`);
  return {
    task: {
      name: schedule.name.slice(0, 100) || `schedule ${schedule.id}`,
      enabled: schedule.active,
      cronSchedule: schedule.cron,
      operations,
    },
    notes,
  };
}
