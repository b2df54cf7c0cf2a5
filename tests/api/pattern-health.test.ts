import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEchoServer } from "../support/echo-server.ts";
import { rawRequest } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

type Run = { id: string; finished: number | null; success?: boolean; message?: string };

/**
 * Issue 35, P1: a task's `alterfile` with `(a+)+$` froze the whole panel (its local node shares
 * the panel's event loop): 9.3 s at 29 characters, doubling with each more. The audit's pattern,
 * here on the largest file the work bound lets it run over, in a task of many such steps, while
 * the panel is asked for /api/health: the answer comes while the task is still running, not after
 * it. (A step holds the loop for one scan, a small part of the run; no clock is compared.)
 */
describe("/api/health while the audit's worst pattern runs", () => {
  const panel = usePanel();
  const id = "be117001";
  let api: PanelClient;

  beforeAll(async () => {
    api = await adminClient(panel());
    await createEchoServer(api, id);
  });
  afterAll(async () => {
    await api?.delete(`/api/servers/${id}`);
  });

  it("answers before the pattern task has finished", async () => {
    // Lines that `(a+)+$` fails on: a backtracking engine tries 2^62 ways on each.
    const text = `${"a".repeat(62)}!\n`.repeat(6400);
    expect((await rawRequest(api, "PUT", `/api/servers/${id}/file/chat.log`, { body: text })).status).toBe(
      204,
    );
    const steps = 40;
    const made = await api.post(`/api/servers/${id}/tasks`, {
      name: "Worst pattern",
      operations: Array.from({ length: steps }, () => ({
        type: "alterfile",
        file: "chat.log",
        search: "(a+)+$",
        replace: "x",
        regex: true,
      })),
    });
    expect(made.status, made.text).toBe(200);
    const taskId = made.body.id as string;
    const runs = async () => (await api.get(`/api/servers/${id}/tasks/${taskId}/runs`)).body as Run[];

    expect((await api.post(`/api/servers/${id}/tasks/${taskId}/run`)).status).toBe(202);
    const health = await api.get("/api/health");
    expect(health.status).toBe(200);
    const whileRunning = await runs();
    expect(whileRunning).toHaveLength(1);
    expect(whileRunning[0].finished).toBeNull();

    await waitUntil(async () => (await runs())[0]?.finished != null, 120_000, 200);
    expect((await runs())[0]).toMatchObject({ success: true });
    // No line matched: the file is as it was.
    expect((await rawRequest(api, "GET", `/api/servers/${id}/file/chat.log`)).text).toBe(text);
  }, 150_000);
});
