import { randomUUID } from "node:crypto";
import type { NodeTasks, NodeTaskView, TaskListView, TaskRunView } from "../../contract/node/task-wire.ts";
import {
  checkedTask,
  parseTaskSettings,
  type TaskSettings,
  taskErrors,
  taskLimits,
} from "../../templates/tasks.ts";
import type { BackupOps } from "../backups/backup-ops.ts";
import { loadRe2 } from "../re2.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { compileConsolePattern } from "./console-match.ts";
import { defaultTaskRunOptions, ServerTasks, type TaskRunOptions } from "./server-tasks.ts";
import { hasTaskFile, loadTaskFile, TaskFileWriter } from "./task-file.ts";

/**
 * The tasks of this node's servers. Each server's live on the node in its
 * `.cron` file beside its definition and run here, so they keep running while
 * no panel is connected. LocalNode calls this in-process; the daemon's routes
 * call the same.
 */
export class TaskOps implements NodeTasks {
  private readonly byServer = new Map<string, ServerTasks>();
  /** Loading a server's tasks once, however many calls ask at the same time. */
  private readonly loading = new Map<string, Promise<ServerTasks>>();
  private log: (msg: string) => void = () => {};

  constructor(
    private readonly store: ServerStore,
    private readonly dir: string,
    private readonly backups: BackupOps,
    private readonly options: TaskRunOptions = defaultTaskRunOptions,
  ) {
    // A deleted server's tasks go with it.
    store.afterDelete.push((id) => this.removeServer(id));
  }

  /** Starts the tasks of every server that has some (after the servers are loaded). */
  async start(log: (msg: string) => void = () => {}): Promise<void> {
    this.log = log;
    for (const id of this.store.ids()) {
      if (await hasTaskFile(this.dir, id))
        await this.of(id).catch((err) => log(`server ${id}: tasks not loaded: ${err.message}`));
    }
  }

  /** Starts the tasks of a server a transfer brought here, when it has some. */
  async adopt(serverId: string): Promise<void> {
    if (await hasTaskFile(this.dir, serverId)) await this.of(serverId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.byServer.values()].map((tasks) => tasks.close()));
  }

  async list(serverId: string): Promise<TaskListView> {
    return (await this.of(serverId)).list();
  }

  async get(serverId: string, taskId: string): Promise<NodeTaskView> {
    const tasks = await this.of(serverId);
    if (!tasks.has(taskId)) throw taskErrors.notFound();
    return tasks.view(taskId);
  }

  async create(serverId: string, raw: unknown): Promise<NodeTaskView> {
    // Held for a move: the copy already took the task file.
    this.store.get(serverId).refuseChangesWhileHeld();
    const tasks = await this.of(serverId);
    const task = await runnableTask(raw, tasks.settings.timezone);
    if (tasks.count >= taskLimits.tasksPerServer) throw taskErrors.tooMany();
    const id = randomUUID();
    await tasks.put(id, task);
    return tasks.view(id);
  }

  async update(serverId: string, taskId: string, raw: unknown): Promise<NodeTaskView> {
    // Held for a move: the copy already took the task file.
    this.store.get(serverId).refuseChangesWhileHeld();
    const tasks = await this.of(serverId);
    if (!tasks.has(taskId)) throw taskErrors.notFound();
    await tasks.put(taskId, await runnableTask(raw, tasks.settings.timezone));
    return tasks.view(taskId);
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    // Held for a move: the copy already took the task file.
    this.store.get(serverId).refuseChangesWhileHeld();
    const tasks = await this.of(serverId);
    if (!tasks.has(taskId)) throw taskErrors.notFound();
    await tasks.remove(taskId);
  }

  async run(serverId: string, taskId: string): Promise<TaskRunView> {
    const tasks = await this.of(serverId);
    if (!tasks.has(taskId)) throw taskErrors.notFound();
    return tasks.trigger(taskId, "manual");
  }

  async runs(serverId: string, taskId: string): Promise<TaskRunView[]> {
    const tasks = await this.of(serverId);
    if (!tasks.has(taskId)) throw taskErrors.notFound();
    return tasks.runs(taskId);
  }

  async setSettings(serverId: string, raw: unknown): Promise<TaskSettings> {
    // Held for a move: the copy already took the task file.
    this.store.get(serverId).refuseChangesWhileHeld();
    const tasks = await this.of(serverId);
    const { settings, problems } = parseTaskSettings(raw);
    if (!settings) throw taskErrors.invalid(problems);
    await tasks.setSettings(settings);
    return settings;
  }

  /** A server's tasks, loaded and started on first use (404 for a server this node does not have). */
  of(serverId: string): Promise<ServerTasks> {
    const server = this.store.get(serverId);
    const known = this.byServer.get(serverId);
    if (known) return Promise.resolve(known);
    let loading = this.loading.get(serverId);
    if (!loading) {
      loading = (async () => {
        const { file, runs } = await loadTaskFile(this.dir, serverId, this.log);
        const tasks = new ServerTasks(
          server,
          file,
          runs,
          new TaskFileWriter(this.dir, serverId),
          async (target, taskName) => {
            const fileName = `${randomUUID()}.tar.gz`;
            const { done } = await this.backups.begin(target.id, fileName, taskName);
            await done;
            return fileName;
          },
          (target, fileName) => this.backups.delete(target.id, fileName),
          this.options,
        );
        // Console patterns are matched with re2js, loaded with the first server that has one.
        if (Object.values(file.tasks).some((task) => task.consoleMatch !== undefined)) await loadRe2();
        tasks.start();
        this.byServer.set(serverId, tasks);
        return tasks;
      })().finally(() => this.loading.delete(serverId));
      this.loading.set(serverId, loading);
    }
    return loading;
  }

  private async removeServer(id: string): Promise<void> {
    const tasks = this.byServer.get(id);
    this.byServer.delete(id);
    await tasks?.close();
    await new TaskFileWriter(this.dir, id).remove();
  }
}

/**
 * A task as the template rules read it, whose console pattern the node can also run: it matches
 * with RE2 (linear time), which has no lookarounds or back-references that JavaScript allows.
 */
async function runnableTask(raw: unknown, timeZone: string) {
  const task = checkedTask(raw, timeZone);
  if (task.consoleMatch !== undefined) {
    await loadRe2();
    try {
      compileConsolePattern(task.consoleMatch);
    } catch (error) {
      throw taskErrors.invalid([
        {
          path: "consoleMatch",
          problem: `cannot be matched in linear time: ${(error as Error).message} (lookarounds and back-references are not supported)`,
        },
      ]);
    }
  }
  return task;
}
