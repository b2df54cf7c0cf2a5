import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/** Issue 36: how many extra port allocations and databases a server may hold. */
describe("a server's hosting limits", () => {
  const panel = usePanel();
  const id = "a1117e01";
  const viewer = newUser("limitsviewer");
  let admin: PanelClient;
  let viewerApi: PanelClient;
  let strangerApi: PanelClient;

  beforeAll(async () => {
    admin = await adminClient(panel());
    viewerApi = await registeredClient(panel(), viewer);
    strangerApi = await registeredClient(panel(), newUser("limitsstranger"));
    const made = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 });
    expect(made.status, made.text).toBe(200);
    const granted = await admin.put(`/api/servers/${id}/user/${encodeURIComponent(viewer.email)}`, {
      scopes: ["server.view"],
    });
    expect(granted.status, granted.text).toBeLessThan(300);
  }, 60_000);
  afterAll(async () => {
    await admin?.delete(`/api/servers/${id}`);
  });

  it("starts at none of either and keeps what an administrator sets, one field at a time", async () => {
    expect((await admin.get(`/api/servers/${id}/limits`)).body).toEqual({
      allocationLimit: 0,
      databaseLimit: 0,
    });
    const set = await admin.put(`/api/servers/${id}/limits`, { allocationLimit: 3 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ allocationLimit: 3, databaseLimit: 0 });
    await admin.put(`/api/servers/${id}/limits`, { databaseLimit: 2 });
    const read = await viewerApi.get(`/api/servers/${id}/limits`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ allocationLimit: 3, databaseLimit: 2 });
  });

  it("is set by administrators only and read by those who may view the server", async () => {
    const byViewer = await viewerApi.put(`/api/servers/${id}/limits`, { allocationLimit: 50 });
    expect(byViewer.status).toBe(403);
    expect((await strangerApi.get(`/api/servers/${id}/limits`)).status).toBe(403);
    expect((await admin.get(`/api/servers/${id}/limits`)).body.allocationLimit).toBe(3);
  });

  it("refuses values out of range or of the wrong type and changes nothing, and an unknown server", async () => {
    for (const body of [
      { allocationLimit: -1 },
      { databaseLimit: 1.5 },
      { databaseLimit: 100000 },
      { allocationLimit: "4" },
    ]) {
      const refused = await admin.put(`/api/servers/${id}/limits`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBeTruthy();
    }
    expect((await admin.get(`/api/servers/${id}/limits`)).body).toEqual({
      allocationLimit: 3,
      databaseLimit: 2,
    });
    expect((await admin.put("/api/servers/ffff0000/limits", { allocationLimit: 1 })).status).toBe(404);
  });
});
