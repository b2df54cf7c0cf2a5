import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 35, P7: `server.tasks.view` showed everyone's task steps as they were saved: an
 * administrator's Steam password in a `steamgamedl` step, the text of a `writefile`. Steps are
 * shown whole to those who could write them (server.tasks.edit and every scope the steps need);
 * others see each step's type alone.
 */
describe("task steps as each reader may see them", () => {
  const panel = usePanel();
  const id = "a7c05e01";
  const viewer = newUser("stepviewer");
  const editor = newUser("stepeditor");
  let admin: PanelClient;
  let viewerApi: PanelClient;
  let editorApi: PanelClient;
  let taskId: string;
  const operations = [
    { type: "writefile", target: "motd.txt", text: "ADMIN-ONLY-TEXT-9d2" },
    { type: "steamgamedl", appId: "740", username: "operator", password: "STEAM-PASS-5c1" },
  ];

  beforeAll(async () => {
    admin = await adminClient(panel());
    viewerApi = await registeredClient(panel(), viewer);
    editorApi = await registeredClient(panel(), editor);
    const made = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 });
    expect(made.status, made.text).toBe(200);
    const grant = (who: { email: string }, scopes: string[]) =>
      admin.put(`/api/servers/${id}/user/${encodeURIComponent(who.email)}`, { scopes });
    expect((await grant(viewer, ["server.view", "server.tasks.view"])).status).toBeLessThan(300);
    // May edit tasks and files, but not run programs: could not have written the steamgamedl step.
    expect(
      (await grant(editor, ["server.view", "server.tasks.view", "server.tasks.edit", "server.files.edit"]))
        .status,
    ).toBeLessThan(300);
    const task = await admin.post(`/api/servers/${id}/tasks`, {
      name: "Refresh",
      cronSchedule: "0 5 * * *",
      operations,
    });
    expect(task.status, task.text).toBe(200);
    taskId = task.body.id;
  }, 60_000);
  afterAll(async () => {
    await admin?.delete(`/api/servers/${id}`);
  });

  it("shows a reader who could not write them each step's type alone, in the list and one by one", async () => {
    for (const reader of [viewerApi, editorApi]) {
      const list = await reader.get(`/api/servers/${id}/tasks`);
      expect(list.status, list.text).toBe(200);
      const one = await reader.get(`/api/servers/${id}/tasks/${taskId}`);
      expect(one.status, one.text).toBe(200);
      for (const text of [list.text, one.text]) {
        expect(text).not.toContain("ADMIN-ONLY-TEXT-9d2");
        expect(text).not.toContain("STEAM-PASS-5c1");
      }
      expect(one.body.operations).toEqual([{ type: "writefile" }, { type: "steamgamedl" }]);
    }
  });

  it("shows them whole to one who could write them", async () => {
    const one = await admin.get(`/api/servers/${id}/tasks/${taskId}`);
    expect(one.body.operations).toEqual(operations);
  });
});
