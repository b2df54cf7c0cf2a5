import {
  type NodeTasks,
  NodeTaskView,
  TaskListView,
  TaskRunList,
  TaskRunView,
  TaskSettings,
} from "../contract/node/task-wire.ts";
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
    return this.http.call("GET", this.path(serverId), { answer: TaskListView });
  }

  get(serverId: string, taskId: string): Promise<NodeTaskView> {
    return this.http.call("GET", this.task(serverId, taskId), { answer: NodeTaskView });
  }

  create(serverId: string, task: unknown): Promise<NodeTaskView> {
    return this.http.call("POST", this.path(serverId), { json: task ?? null, answer: NodeTaskView });
  }

  update(serverId: string, taskId: string, task: unknown): Promise<NodeTaskView> {
    return this.http.call("PUT", this.task(serverId, taskId), { json: task ?? null, answer: NodeTaskView });
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    await this.http.call("DELETE", this.task(serverId, taskId));
  }

  run(serverId: string, taskId: string): Promise<TaskRunView> {
    return this.http.call("POST", this.task(serverId, taskId, "/run"), { answer: TaskRunView });
  }

  runs(serverId: string, taskId: string): Promise<TaskRunView[]> {
    return this.http.call("GET", this.task(serverId, taskId, "/runs"), { answer: TaskRunList });
  }

  setSettings(serverId: string, settings: unknown): Promise<TaskSettings> {
    return this.http.call("PUT", `${this.path(serverId)}-settings`, {
      json: settings ?? null,
      answer: TaskSettings,
    });
  }
}
