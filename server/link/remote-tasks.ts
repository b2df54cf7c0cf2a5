import type { NodeTasks, TaskListView, TaskRunView, TaskView } from "../contract/node/task-wire.ts";
import type { TaskSettings } from "../templates/tasks.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's tasks, through the daemon's routes under /daemon/server/{id}/tasks. */
export class RemoteTasks implements NodeTasks {
  constructor(readonly http: NodeHttp) {}

  private path(id: string, rest = ""): string {
    return `/daemon/server/${encodeURIComponent(id)}/tasks${rest}`;
  }

  private task(id: string, taskId: string, rest = ""): string {
    return this.path(id, `/${encodeURIComponent(taskId)}${rest}`);
  }

  list(serverId: string): Promise<TaskListView> {
    return this.http.call("GET", this.path(serverId));
  }

  get(serverId: string, taskId: string): Promise<TaskView> {
    return this.http.call("GET", this.task(serverId, taskId));
  }

  create(serverId: string, task: unknown): Promise<TaskView> {
    return this.http.call("POST", this.path(serverId), { json: task ?? null });
  }

  update(serverId: string, taskId: string, task: unknown): Promise<TaskView> {
    return this.http.call("PUT", this.task(serverId, taskId), { json: task ?? null });
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    await this.http.call("DELETE", this.task(serverId, taskId));
  }

  run(serverId: string, taskId: string): Promise<TaskRunView> {
    return this.http.call("POST", this.task(serverId, taskId, "/run"));
  }

  runs(serverId: string, taskId: string): Promise<TaskRunView[]> {
    return this.http.call("GET", this.task(serverId, taskId, "/runs"));
  }

  setSettings(serverId: string, settings: unknown): Promise<TaskSettings> {
    return this.http.call("PUT", `${this.path(serverId)}-settings`, { json: settings ?? null });
  }
}
