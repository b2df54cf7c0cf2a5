import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeEvent } from "../../server/contract/node/node-events.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/** The node's own events (the activity log's task runs and SFTP writes): one contract, both nodes. */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient events contract: ${name}`, () => {
    let subject: NodeUnderTest;
    const id = "e7e70001";

    beforeAll(async () => {
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
    });
    afterAll(async () => {
      await subject?.close();
    });

    const runTask = async (taskName: string) => {
      const task = await subject.client.tasks.create(id, { name: taskName, operations: [] });
      await subject.client.tasks.run(id, task.id);
      return task.id;
    };

    it("streams a task's run as an activity event, and replays what came after the last one heard", async () => {
      const heard: NodeEvent[] = [];
      const stop = await subject.client.events.subscribe(
        undefined,
        (e) => heard.push(e),
        () => {},
      );
      const taskId = await runTask("first");
      await waitUntil(async () => heard.some((e) => e.data.subject === `task:${taskId}`), 10_000);
      const event = heard.find((e) => e.data.subject === `task:${taskId}`) as NodeEvent;
      expect(event).toMatchObject({
        type: "activity",
        data: {
          serverId: id,
          actor: { kind: "task", name: "first", taskId },
          action: "task.run",
          ok: true,
          details: { trigger: "manual" },
        },
      });
      expect(event.id).toMatch(/^[0-9a-f-]{36}:\d+$/);
      stop();

      // Missed while not listening: given on the next subscription after the last id heard, once.
      const missed = await runTask("second");
      // Its event goes out when the run ends: once the run shows as finished, it was sent unheard.
      await waitUntil(
        async () => (await subject.client.tasks.runs(id, missed)).some((r) => r.finished !== null),
        10_000,
        20,
      );
      const again: NodeEvent[] = [];
      const stopAgain = await subject.client.events.subscribe(
        event.id,
        (e) => again.push(e),
        () => {},
      );
      await waitUntil(async () => again.some((e) => e.data.subject === `task:${missed}`), 10_000);
      expect(again.filter((e) => e.data.subject === `task:${taskId}`)).toEqual([]);
      expect(again.filter((e) => e.data.subject === `task:${missed}`)).toHaveLength(1);
      stopAgain();
    });
  });
}
