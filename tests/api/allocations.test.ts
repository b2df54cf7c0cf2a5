import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { addRemoteNode, loopbackNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

interface Entry {
  id: number;
  ip: string;
  port: number;
  alias?: string;
  serverId: string | null;
}

/** Issue 36, ports: nodes' pools of allocations, given to servers, never one port to two servers. */
describe("port allocations", () => {
  const panel = usePanel();
  const member = newUser("portmember");
  let admin: PanelClient;
  let memberApi: PanelClient;
  let remote: number;
  let daemon: DaemonProcess;
  let spare: number;

  const pool = async (node: number): Promise<Entry[]> => {
    const res = await admin.get(`/api/nodes/${node}/allocations`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const heldBy = async (node: number, server: string) =>
    (await pool(node)).filter((entry) => entry.serverId === server).map((entry) => entry.port);
  const create = (id: string, node: number, over: Record<string, unknown> = {}) =>
    admin.put(`/api/servers/${id}`, { ...echoDefinition(), node, ...over });
  const portOf = async (id: string) => (await admin.get(`/api/servers/${id}`)).body.server.port;
  const portValue = async (id: string, variable = "port") =>
    (await admin.get(`/api/servers/${id}/data`)).body.data[variable].value;

  beforeAll(async () => {
    admin = await adminClient(panel());
    memberApi = await registeredClient(panel(), member);
    ({ nodeId: remote, daemon } = await addRemoteNode(admin, "ports-target"));
    // A node no daemon answers for: its pool is the panel's alone.
    const added = await admin.post("/api/nodes", await loopbackNode("ports-spare"));
    expect(added.status, added.text).toBe(200);
    spare = added.body.id;
  }, 60_000);
  afterAll(async () => {
    await daemon?.destroy();
  });

  it("adds single ports, ranges and lists, refuses duplicates and more than 10,000 at once", async () => {
    const range = await admin.post("/api/nodes/0/allocations", { ip: "0.0.0.0", ports: "30000-30009" });
    expect(range.status, range.text).toBe(200);
    expect(range.body).toHaveLength(10);
    expect(range.body[0]).toEqual({ id: expect.any(Number), ip: "0.0.0.0", port: 30000, serverId: null });
    const list = await admin.post("/api/nodes/0/allocations", {
      ip: "0.0.0.0",
      ports: "30020, 30022,30024-30025",
      alias: "play.example.com",
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((e: Entry) => e.port)).toEqual([30020, 30022, 30024, 30025]);
    expect(list.body[0].alias).toBe("play.example.com");
    expect(await pool(0)).toHaveLength(14);

    // One already in the pool refuses the whole request, naming it.
    expectError(
      await admin.post("/api/nodes/0/allocations", { ip: "0.0.0.0", ports: "30010-30020" }),
      409,
      "ErrAllocationExists",
      {
        ip: "0.0.0.0",
        port: 30020,
      },
    );
    expect(await pool(0)).toHaveLength(14);
    // The same port on another address is another allocation.
    const other = await admin.post("/api/nodes/0/allocations", { ip: "127.0.0.1", ports: "30040" });
    expect(other.status, other.text).toBe(200);

    for (const ports of ["abc", "0-5", "70000", "5-3", "1-2-3", "", "30050,"])
      expect(
        (await admin.post(`/api/nodes/${spare}/allocations`, { ip: "0.0.0.0", ports })).status,
        ports,
      ).toBe(400);
    expectError(
      await admin.post(`/api/nodes/${spare}/allocations`, { ip: "example.com", ports: "1" }),
      400,
      "ErrFieldIsInvalidIP",
    );
    expectError(
      await admin.post(`/api/nodes/${spare}/allocations`, { ip: "0.0.0.0", ports: "20000-30000" }),
      400,
      "ErrTooManyPorts",
      {
        max: 10000,
        count: 10001,
      },
    );
    expectError(
      await admin.post(`/api/nodes/${spare}/allocations`, { ip: "0.0.0.0", ports: "1-65535" }),
      400,
      "ErrTooManyPorts",
    );
    const most = await admin.post(`/api/nodes/${spare}/allocations`, {
      ip: "0.0.0.0",
      ports: "40000-49998,50000",
    });
    expect(most.status, most.text).toBe(200);
    expect(most.body).toHaveLength(10_000);
    expect(await pool(spare)).toHaveLength(10_000);
    expectError(await admin.get("/api/nodes/999/allocations"), 404, "ErrNodeNotFound");
  });

  it("is the administrators' alone", async () => {
    const [entry] = await pool(spare);
    expectError(await memberApi.get("/api/nodes/0/allocations"), 403, "ErrMissingScope");
    expectError(
      await memberApi.post("/api/nodes/0/allocations", { ip: "0.0.0.0", ports: "1" }),
      403,
      "ErrMissingScope",
    );
    expectError(
      await memberApi.delete(`/api/nodes/${spare}/allocations/${entry.id}`),
      403,
      "ErrMissingScope",
    );
    expect(await pool(spare)).toHaveLength(10_000);
  });

  it("gives each new server free ports of its node: two servers, two ports; the creator may choose", async () => {
    expect((await create("port0a01", 0)).status).toBe(200);
    expect((await create("port0b02", 0)).status).toBe(200);
    // The template says 25565, which is not in the pool: each took the next free one.
    expect(await portOf("port0a01")).toBe(30000);
    expect(await portOf("port0b02")).toBe(30001);
    expect(await portValue("port0a01")).toBe(30000);
    expect(await portValue("port0b02")).toBe(30001);
    expect(await heldBy(0, "port0a01")).toEqual([30000]);

    const chosen = await create("port0c03", 0, { ports: { port: 30022 } });
    expect(chosen.status, chosen.text).toBe(200);
    expect(await portOf("port0c03")).toBe(30022);
    expect((await admin.get("/api/servers/port0c03")).body.server.ip).toBe("0.0.0.0");

    // Every port variable takes one: by name (port, queryPort) or marked ("port": true).
    const multi = echoDefinition();
    const made = await create("port0d04", 0, {
      data: {
        ...multi.data,
        queryPort: { type: "integer", value: 30001, display: "Query port" },
        rcon: { type: "integer", value: 1, display: "RCON", port: true },
        motdport: { type: "string", value: "x", display: "Not a port: a string" },
      },
    });
    expect(made.status, made.text).toBe(200);
    const held = await admin.get("/api/servers/port0d04/allocations");
    expect(held.status, held.text).toBe(200);
    expect(
      held.body.allocations.map((a: { port: number; variable?: string; primary: boolean }) => [
        a.variable,
        a.port,
        a.primary,
      ]),
    ).toEqual([
      ["port", 30002, true],
      ["queryPort", 30003, false],
      ["rcon", 30004, false],
    ]);
    expect(await portValue("port0d04", "rcon")).toBe(30004);
    expect(await portValue("port0d04", "motdport")).toBe("x");
  });

  it("refuses a port another server of the node holds, on create, naming it to an administrator", async () => {
    expectError(await create("port0e05", 0, { ports: { port: 30000 } }), 409, "ErrPortTaken", {
      port: 30000,
      named: "yes",
      server: "port0a01",
    });
    expectError(await create("port0e05", 0, { ports: { port: 31000 } }), 400, "ErrPortNotInPool", {
      port: 31000,
    });
    // Nothing of it was made, and nothing held.
    expect((await admin.get("/api/servers/port0e05")).status).toBe(404);
    expect(await heldBy(0, "port0e05")).toEqual([]);
  });

  it("refuses a variable change to a taken port, names the holder only to who may see it, follows a free one", async () => {
    expectError(
      await admin.put("/api/servers/port0b02/data", { data: { port: 30000 } }),
      409,
      "ErrPortTaken",
      {
        server: "port0a01",
      },
    );
    await setServerScopes(panel(), member.email, "port0b02", [
      "server.view",
      "server.data.view",
      "server.data.edit.admin",
    ]);
    const hidden = await memberApi.put("/api/servers/port0b02/data", { data: { port: 30000 } });
    expectError(hidden, 409, "ErrPortTaken", { port: 30000, named: "no" });
    expect(hidden.body.error.metadata.server).toBeUndefined();
    expect(hidden.text).not.toContain("port0a01");
    expect(await portValue("port0b02")).toBe(30001);
    // Outside the pool: refused too.
    expectError(
      await admin.put("/api/servers/port0b02/data", { data: { port: 31000 } }),
      400,
      "ErrPortNotInPool",
    );

    const moved = await memberApi.put("/api/servers/port0b02/data", { data: { port: 30005 } });
    expect(moved.status, moved.text).toBe(204);
    expect(await portValue("port0b02")).toBe(30005);
    expect(await portOf("port0b02")).toBe(30005);
    expect(await heldBy(0, "port0b02")).toEqual([30005]);
    // 30001 is free again: the next server takes it.
    expect((await create("port0f06", 0)).status).toBe(200);
    expect(await portOf("port0f06")).toBe(30001);
    // Other variables change as before.
    expect((await admin.put("/api/servers/port0b02/data", { data: { motd: "hi" } })).status).toBe(204);
  });

  it("refuses removing an allocation a server holds; a free one goes", async () => {
    const entries = await pool(0);
    const held = entries.find((e) => e.port === 30000)!;
    expectError(await admin.delete(`/api/nodes/0/allocations/${held.id}`), 409, "ErrAllocationInUse", {
      server: "port0a01",
    });
    const free = entries.find((e) => e.port === 30025)!;
    expect((await admin.delete(`/api/nodes/0/allocations/${free.id}`)).status).toBe(204);
    expectError(await admin.delete(`/api/nodes/0/allocations/${free.id}`), 404, "ErrAllocationNotFound");
    // A deleted server gives its ports back.
    expect((await admin.delete("/api/servers/port0f06")).status).toBe(204);
    expect((await pool(0)).find((e) => e.port === 30001)?.serverId).toBeNull();
  });

  it("lets a server add extras within its limit, choose the primary, remove an extra, each by its scope", async () => {
    const id = "port0a01";
    const url = `/api/servers/${id}/allocations`;
    const set = (scopes: string[]) => setServerScopes(panel(), member.email, id, ["server.view", ...scopes]);
    await set([]);
    expectError(await memberApi.get(url), 403, "ErrMissingScope", { scope: "server.allocations.view" });
    await set(["server.allocations.view"]);
    const listed = await memberApi.get(url);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      allocations: [{ id: expect.any(Number), ip: "0.0.0.0", port: 30000, primary: true, variable: "port" }],
      allocationLimit: 0,
      pooled: true,
    });
    const primaryId = listed.body.allocations[0].id;
    expectError(await memberApi.post(url), 403, "ErrMissingScope", { scope: "server.allocations.edit" });
    expectError(await memberApi.put(`${url}/${primaryId}/primary`), 403, "ErrMissingScope", {
      scope: "server.allocations.edit",
    });
    expectError(await memberApi.delete(`${url}/${primaryId}`), 403, "ErrMissingScope", {
      scope: "server.allocations.edit",
    });

    await set(["server.allocations.view", "server.allocations.edit"]);
    expectError(await memberApi.post(url), 409, "ErrAllocationLimit", { limit: 0 });
    expect((await admin.put(`/api/servers/${id}/limits`, { allocationLimit: 1 })).status).toBe(200);
    const extra = await memberApi.post(url);
    expect(extra.status, extra.text).toBe(200);
    expect(extra.body).toEqual({ id: expect.any(Number), ip: "0.0.0.0", port: 30001, primary: false });
    expectError(await memberApi.post(url), 409, "ErrAllocationLimit", { limit: 1 });

    expectError(await memberApi.delete(`${url}/${primaryId}`), 409, "ErrAllocationNotExtra");
    const swapped = await memberApi.put(`${url}/${extra.body.id}/primary`);
    expect(swapped.status, swapped.text).toBe(200);
    expect(
      swapped.body.allocations.map((a: { port: number; primary: boolean }) => [a.port, a.primary]),
    ).toEqual([
      [30001, true],
      [30000, false],
    ]);
    // The template's port variable followed, and the server's address.
    expect(await portValue(id)).toBe(30001);
    expect(await portOf(id)).toBe(30001);
    expect((await memberApi.delete(`${url}/${primaryId}`)).status).toBe(204);
    expect(await heldBy(0, id)).toEqual([30001]);
    // Another server's allocation is not this one's to remove.
    const others = await pool(0);
    const notHers = others.find((e) => e.serverId === "port0b02")!;
    expectError(await memberApi.delete(`${url}/${notHers.id}`), 404, "ErrAllocationNotFound");
  });

  it("leaves a node without allocations as before: ports are the template's, unchecked", async () => {
    expect((await create("port1a01", remote)).status).toBe(200);
    expect((await create("port1b02", remote)).status).toBe(200);
    expect(await portOf("port1a01")).toBe(25565);
    expect(await portOf("port1b02")).toBe(25565);
    expect((await admin.put("/api/servers/port1b02/data", { data: { port: 25570 } })).status).toBe(204);
    expect(await portOf("port1b02")).toBe(25570);
    expect((await admin.get("/api/servers/port1a01/allocations")).body).toEqual({
      allocations: [],
      allocationLimit: 0,
      pooled: false,
    });
  });

  it("moves a server's ports to the target's pool: the same where free, else the next, or refuses first", async () => {
    const added = await admin.post(`/api/nodes/${remote}/allocations`, {
      ip: "0.0.0.0",
      ports: "30002-30004,30006",
    });
    expect(added.status, added.text).toBe(200);
    // A server from before the pool keeps its port when its settings are saved as they are.
    expect(
      (await admin.put("/api/servers/port1a01/data", { data: { port: 25565, motd: "saved" } })).status,
    ).toBe(204);
    expect(await portOf("port1a01")).toBe(25565);
    // 25565 and 25570 are the remote's servers' ports from before its pool: never given out.
    expect((await create("port1c03", remote)).status).toBe(200);
    expect(await portOf("port1c03")).toBe(30002);

    // port0c03 holds 30022 on the local node: not in the target's pool, so it takes the next free one.
    const targets = await admin.get("/api/servers/port0c03/transfer");
    expect(targets.body.nodes.find((n: { id: number }) => n.id === remote)).toMatchObject({
      ports: [{ from: 30022, to: 30003 }],
    });
    const moved = await admin.post("/api/servers/port0c03/transfer", { node: remote });
    expect(moved.status, moved.text).toBe(204);
    expect(await portOf("port0c03")).toBe(30003);
    expect(await portValue("port0c03")).toBe(30003);
    expect(await heldBy(remote, "port0c03")).toEqual([30003]);
    expect((await pool(0)).find((e) => e.port === 30022)?.serverId).toBeNull();

    // port0b02 holds 30005 locally, not in the target's pool either: the next free one is 30004.
    const fits = await admin.post("/api/servers/port0b02/transfer", { node: remote });
    expect(fits.status, fits.text).toBe(204);
    expect(await portOf("port0b02")).toBe(30004);

    // Its three ports do not fit in the one left (30006): refused before anything moved.
    const before = await heldBy(0, "port0d04");
    const shown = await admin.get("/api/servers/port0d04/transfer");
    expect(shown.body.nodes.find((n: { id: number }) => n.id === remote).portsRefused).toMatch(
      /^Err(PortTaken|NoFreeAllocation)$/,
    );
    const refused = await admin.post("/api/servers/port0d04/transfer", { node: remote });
    expect(refused.status, refused.text).toBe(409);
    expect(["ErrPortTaken", "ErrNoFreeAllocation"]).toContain(refused.body.error.code);
    expect((await admin.get("/api/servers/port0d04")).body.server.node.id).toBe(0);
    expect(await heldBy(0, "port0d04")).toEqual(before);
    expect(await heldBy(remote, "port0d04")).toEqual([]);

    // A port the target's server holds, with nothing free there: 409 ErrPortTaken naming it.
    expect((await create("port1d04", remote)).status).toBe(200);
    expect(await portOf("port1d04")).toBe(30006);
    const clash = await create("port0g07", 0, { ports: { port: 30006 } });
    expect(clash.status, clash.text).toBe(200);
    expectError(await admin.post("/api/servers/port0g07/transfer", { node: remote }), 409, "ErrPortTaken", {
      port: 30006,
      server: "port1d04",
    });
    expect((await admin.get("/api/servers/port0g07")).body.server.node.id).toBe(0);
  }, 60_000);
});
