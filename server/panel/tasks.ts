import type { TaskListView, TaskRunView, TaskView } from "../link/task-wire.ts";
import type { TaskSettings } from "../templates/tasks.ts";
import type { Servers } from "./servers.ts";

/**
 * A server's tasks, which its node keeps and runs (they go on while the
 * panel is down): the panel finds the node and asks it. The node checks
 * each task and answers with the field it refuses.
 */
export class Tasks {
  constructor(private readonly servers: Servers) {}

  private async node(serverId: string) {
    return (await this.servers.nodeOf(serverId)).tasks;
  }

  async list(serverId: string): Promise<TaskListView> {
    return (await this.node(serverId)).list(serverId);
  }

  async get(serverId: string, taskId: string): Promise<TaskView> {
    return (await this.node(serverId)).get(serverId, taskId);
  }

  async create(serverId: string, task: unknown): Promise<TaskView> {
    return (await this.node(serverId)).create(serverId, task);
  }

  async update(serverId: string, taskId: string, task: unknown): Promise<TaskView> {
    return (await this.node(serverId)).update(serverId, taskId, task);
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    await (await this.node(serverId)).delete(serverId, taskId);
  }

  async run(serverId: string, taskId: string): Promise<TaskRunView> {
    return (await this.node(serverId)).run(serverId, taskId);
  }

  async runs(serverId: string, taskId: string): Promise<TaskRunView[]> {
    return (await this.node(serverId)).runs(serverId, taskId);
  }

  async setSettings(serverId: string, settings: unknown): Promise<TaskSettings> {
    return (await this.node(serverId)).setSettings(serverId, settings);
  }
}
