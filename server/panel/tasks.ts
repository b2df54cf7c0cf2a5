import { errors } from "../errors.ts";
import type { TaskListView, TaskRunView, TaskView } from "../node-wire/task-wire.ts";
import { type TaskSettings, taskOperationTypes } from "../templates/tasks.ts";
import type { AlertEvent } from "./notifications/notifier.ts";
import { holdsScope } from "./scopes.ts";
import type { Servers } from "./servers.ts";

/**
 * What each operation needs of whoever saves it: a task does only what its
 * author may do by hand. A task runs with the node's authority, so without
 * this a user holding only server.tasks.create could send console lines,
 * stop the server or run programs (a `command` runs as install steps do,
 * which only those who may change the definition set).
 */
const operationScopes: Record<string, string[]> = {
  console: ["server.console.send"],
  start: ["server.start"],
  stop: ["server.stop"],
  restart: ["server.stop", "server.start"],
  kill: ["server.kill"],
  // keep: N removes the task's older backups.
  backup: ["server.backup.create", "server.backup.delete"],
  sleep: [],
  alterfile: ["server.files.edit"],
  archive: ["server.files.edit"],
  extract: ["server.files.edit"],
  mkdir: ["server.files.edit"],
  move: ["server.files.edit"],
  writefile: ["server.files.edit"],
  download: ["server.files.edit"],
};
/** Every other operation (command, the downloaders and installers) runs programs or fetches them. */
const programScopes = ["server.definition.edit"];

/** Refuses a task holding an operation its author may not do by hand (403 naming the scope). */
function checkOperationScopes(task: unknown, held: readonly string[]): void {
  const operations = (task as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(operations)) return; // the node names what is wrong
  for (const op of operations) {
    const type = (op as { type?: unknown } | null)?.type;
    // An unknown type is the node's to refuse, naming the field.
    if (typeof type !== "string" || !(taskOperationTypes as readonly string[]).includes(type)) continue;
    const needs = Object.hasOwn(operationScopes, type) ? operationScopes[type] : programScopes;
    for (const scope of needs) if (!holdsScope(held, scope)) throw errors.missingScope(scope);
  }
}

/** A failed run older than this, seen in an answer, is history rather than news. */
const recentFailureMs = 15 * 60_000;

/**
 * A server's tasks, which its node keeps and runs (they go on while the
 * panel is down): the panel finds the node and asks it. The node checks
 * each task and answers with the field it refuses.
 */
export class Tasks {
  constructor(
    private readonly servers: Servers,
    /** Alerts: failures the panel sees in the node's answers (task.failed). */
    private readonly notify: (event: AlertEvent) => void = () => {},
  ) {}

  private async node(serverId: string) {
    return (await this.servers.nodeOf(serverId)).tasks;
  }

  async list(serverId: string): Promise<TaskListView> {
    const list = await (await this.node(serverId)).list(serverId);
    for (const task of list.tasks) if (task.lastRun) this.failed(serverId, task.id, task.name, task.lastRun);
    return list;
  }

  async get(serverId: string, taskId: string): Promise<TaskView> {
    return (await this.node(serverId)).get(serverId, taskId);
  }

  /** `held`: the caller's scopes on the server, for the operations the task holds. */
  async create(serverId: string, task: unknown, held: readonly string[]): Promise<TaskView> {
    checkOperationScopes(task, held);
    return (await this.node(serverId)).create(serverId, task);
  }

  async update(serverId: string, taskId: string, task: unknown, held: readonly string[]): Promise<TaskView> {
    checkOperationScopes(task, held);
    return (await this.node(serverId)).update(serverId, taskId, task);
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    await (await this.node(serverId)).delete(serverId, taskId);
  }

  async run(serverId: string, taskId: string): Promise<TaskRunView> {
    return (await this.node(serverId)).run(serverId, taskId);
  }

  async runs(serverId: string, taskId: string): Promise<TaskRunView[]> {
    const runs = await (await this.node(serverId)).runs(serverId, taskId);
    for (const run of runs)
      if (run.finished && run.success !== null)
        this.failed(serverId, taskId, taskId, {
          time: run.started,
          success: run.success,
          message: run.message,
        });
    return runs;
  }

  /**
   * The node runs tasks on its own and keeps their outcome: the panel tells of
   * a recent failure when an answer shows it (a scheduled run's is seen when
   * the tasks or a task's runs are next listed, as the task screen does while it is
   * open). Each run is told once (keyed by its start time, which both answers give).
   */
  private failed(
    serverId: string,
    taskId: string,
    name: string,
    run: { time: string; success: boolean; message: string },
  ): void {
    if (run.success || Date.now() - Date.parse(run.time) > recentFailureMs) return;
    this.notify({
      type: "task.failed",
      serverId,
      detail: `${name}: ${run.message}`,
      key: `${serverId}:${taskId}:${run.time}`,
    });
  }

  async setSettings(serverId: string, settings: unknown): Promise<TaskSettings> {
    return (await this.node(serverId)).setSettings(serverId, settings);
  }
}
