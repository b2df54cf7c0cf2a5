import type { NodeTaskView, TaskListView, TaskRunView } from "../contract/node/task-wire.ts";
import type { Db } from "../db/database.ts";
import { errors, errorText } from "../errors.ts";
import { type TaskSettings, taskOperationTypes } from "../templates/tasks.ts";
import type { ActivityRecord } from "./activity.ts";
import type { AlertEvent } from "./notifications/notifier.ts";
import type { Permissions } from "./permissions.ts";
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

/** The first scope a task's operations need that `held` lacks, if any. */
function missingOperationScope(task: unknown, held: readonly string[]): string | undefined {
  const operations = (task as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(operations)) return undefined; // the node names what is wrong
  for (const op of operations) {
    const type = (op as { type?: unknown } | null)?.type;
    // An unknown type is the node's to refuse, naming the field.
    if (typeof type !== "string" || !(taskOperationTypes as readonly string[]).includes(type)) continue;
    const needs = Object.hasOwn(operationScopes, type) ? operationScopes[type] : programScopes;
    for (const scope of needs) if (!holdsScope(held, scope)) return scope;
  }
  return undefined;
}

/**
 * A task as a caller may read it: its steps whole for one who could write them (server.tasks.edit
 * and every scope its operations need), else each step's type alone. A step may hold what only
 * its author meant to show: a download's password, a file's text, a command line.
 */
function asSeenBy<T extends { operations: { type: string }[] }>(task: T, held: readonly string[]): T {
  if (holdsScope(held, "server.tasks.edit") && missingOperationScope(task, held) === undefined) return task;
  return { ...task, operations: task.operations.map(({ type }) => ({ type })) };
}

/** Refuses a task holding an operation its author may not do by hand (403 naming the scope). */
function checkOperationScopes(task: unknown, held: readonly string[]): void {
  const missing = missingOperationScope(task, held);
  if (missing !== undefined) throw errors.missingScope(missing);
}

/** A task as saved: the caller's body, authored by the caller whatever the body said. */
function authored(task: unknown, author: number): unknown {
  return task !== null && typeof task === "object" && !Array.isArray(task) ? { ...task, author } : task;
}

export interface TaskCaller {
  userId: number;
  /** The caller's scopes on the server. */
  held: readonly string[];
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
    private readonly db: Db,
    /** A task runs with its author's rights there now (`scopesOn`: none without `login`, or once deleted). */
    private readonly permissions: Permissions,
    private readonly servers: Servers,
    /** Alerts: failures the panel sees in the node's answers (task.failed). */
    private readonly notify: (event: AlertEvent) => void = () => {},
    private readonly warn: (msg: string) => void = () => {},
    /** The activity log: a task the panel disabled, under the author's user id so they see it. */
    private readonly record: (entry: ActivityRecord) => Promise<void> = async () => {},
  ) {}

  private async node(serverId: string) {
    return (await this.servers.nodeOf(serverId)).tasks;
  }

  /** `held`: the reader's scopes on the server, which decide how much of each task's steps they see. */
  async list(serverId: string, held: readonly string[]): Promise<TaskListView> {
    const list = await (await this.node(serverId)).list(serverId);
    for (const task of list.tasks) if (task.lastRun) this.failed(serverId, task.id, task.name, task.lastRun);
    return { ...list, tasks: list.tasks.map((task) => asSeenBy(task, held)) };
  }

  async get(serverId: string, taskId: string, held: readonly string[]): Promise<NodeTaskView> {
    return asSeenBy(await (await this.node(serverId)).get(serverId, taskId), held);
  }

  /** `caller`: who saves it and their scopes on the server; the task then runs with that user's rights. */
  async create(serverId: string, task: unknown, caller: TaskCaller): Promise<NodeTaskView> {
    checkOperationScopes(task, caller.held);
    return (await this.node(serverId)).create(serverId, authored(task, caller.userId));
  }

  async update(serverId: string, taskId: string, task: unknown, caller: TaskCaller): Promise<NodeTaskView> {
    checkOperationScopes(task, caller.held);
    return (await this.node(serverId)).update(serverId, taskId, authored(task, caller.userId));
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    await (await this.node(serverId)).delete(serverId, taskId);
  }

  /**
   * A run by hand does what the task's author may do now (their rights may
   * have shrunk since they saved it); a task saved before tasks had authors,
   * what the caller may do.
   */
  async run(serverId: string, taskId: string, caller: TaskCaller): Promise<TaskRunView> {
    const node = await this.node(serverId);
    const task = await node.get(serverId, taskId);
    const held =
      task.author === undefined ? caller.held : await this.permissions.scopesOn(task.author, serverId);
    checkOperationScopes(task, held);
    return node.run(serverId, taskId);
  }

  /**
   * After a user's rights shrank (on one server, or globally: every server),
   * their tasks that now hold an operation they may not do by hand are
   * disabled on the node, so no schedule, event or console line runs them.
   * A node that cannot be reached keeps them as they were (logged) until it
   * answers again: then reviewNode() checks them.
   */
  async authorRightsShrank(userId: number, serverId?: string): Promise<void> {
    const ids =
      serverId !== undefined
        ? [serverId]
        : (await this.db.selectFrom("servers").select("id").execute()).map((row) => row.id);
    for (const id of ids) {
      try {
        await this.reviewServer(id, userId);
      } catch (error) {
        this.warn(
          `tasks of server ${id} by user ${userId} not checked after a change of rights: ${errorText(error)}`,
        );
      }
    }
  }

  /**
   * Every enabled task on a node, checked against its author's rights now (as
   * authorRightsShrank does): called when a node answers again, and when the
   * panel starts, since rights may have changed while the node could not be
   * reached. Idempotent, so several panels reviewing the same node is harmless.
   */
  async reviewNode(nodeId: number): Promise<void> {
    let rows: { id: string }[];
    try {
      rows = await this.db.selectFrom("servers").select("id").where("node_id", "=", nodeId).execute();
    } catch (error) {
      this.warn(`tasks of node ${nodeId} not checked: ${errorText(error)}`);
      return;
    }
    for (const { id } of rows) {
      try {
        await this.reviewServer(id);
      } catch (error) {
        this.warn(`tasks of server ${id} not checked after node ${nodeId} answered: ${errorText(error)}`);
      }
    }
  }

  /** Disables a server's enabled tasks (of one author, or all) that need a scope their author lacks. */
  private async reviewServer(serverId: string, onlyAuthor?: number): Promise<void> {
    const node = await this.node(serverId);
    const rights = new Map<number, Promise<string[]>>();
    for (const task of (await node.list(serverId)).tasks) {
      const author = task.author;
      // A task saved before tasks had authors keeps its schedule (SECURITY.md).
      if (author === undefined || !task.enabled || (onlyAuthor !== undefined && author !== onlyAuthor))
        continue;
      if (!rights.has(author)) rights.set(author, this.permissions.scopesOn(author, serverId));
      const missing = missingOperationScope(task, (await rights.get(author)) ?? []);
      if (missing === undefined) continue;
      const { id: taskId, nextRun, lastRun, ...saved } = task;
      await node.update(serverId, taskId, { ...saved, enabled: false });
      this.warn(
        `task ${taskId} of server ${serverId} disabled: its author (user ${author}) lacks ${missing}`,
      );
      void this.record({
        actor: { kind: "panel", userId: author, name: "" },
        address: "",
        action: "task.disable",
        ok: true,
        serverId,
        subject: task.name || taskId,
        details: { task: taskId, missingScope: missing },
      });
    }
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
