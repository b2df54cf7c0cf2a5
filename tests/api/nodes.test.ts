import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { freePort } from "../support/free-port.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const node = (over: Record<string, unknown> = {}) => ({
  name: "node-a",
  publicHost: "play.example.com",
  publicPort: 8443,
  privateHost: "10.0.0.5",
  privatePort: 8080,
  sftpPort: 5657,
  ...over,
});

describe("node API", () => {
  const panel = usePanel();
  let api: Client;
  beforeAll(async () => {
    api = await adminClient(panel());
  });

  it("lists the local node last, with its address from the panel's public URL", async () => {
    const list = await api.get("/api/nodes");
    expect(list.status).toBe(200);
    const local = list.body.at(-1);
    const url = new URL(panel().url);
    expect(local).toMatchObject({
      id: 0,
      name: "LocalNode",
      isLocal: true,
      reachable: true,
      publicHost: url.hostname,
      publicPort: Number(url.port),
    });
    expect((await api.get("/api/nodes/0/features")).body.environments).toContain("host");
  });

  it("creates a node and answers it with its id; GET, PUT and DELETE work on it", async () => {
    const created = await api.post("/api/nodes/", node());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...node(), isLocal: false });
    const id = created.body.id;
    expect(id).toBeGreaterThan(0);
    expect((await api.get(`/api/nodes/${id}`)).body.name).toBe("node-a");

    expect((await api.put(`/api/nodes/${id}`, { name: "node-renamed", publicPort: 9000 })).status).toBe(204);
    expect((await api.get(`/api/nodes/${id}`)).body).toMatchObject({
      name: "node-renamed",
      publicPort: 9000,
      privatePort: 8080,
    });

    const list = await api.get("/api/nodes");
    expect(list.body.map((n: { name: string }) => n.name)).toEqual(["node-renamed", "LocalNode"]);

    expect((await api.delete(`/api/nodes/${id}`)).status).toBe(204);
    expect((await api.get(`/api/nodes/${id}`)).status).toBe(404);
  });

  it.each([
    [{ name: "" }, "ErrFieldRequired", { field: "name" }],
    [{ name: "a/b" }, "ErrFieldMustBePrintable", { field: "name" }],
    [{ publicHost: "not a host" }, "ErrFieldIsInvalidHost", { field: "publicHost" }],
    [{ privateHost: "-bad-.example" }, "ErrFieldIsInvalidHost", { field: "privateHost" }],
    [{ publicPort: 0 }, "ErrFieldNotBetween", { field: "publicPort", min: 1, max: 65535 }],
    [{ sftpPort: 70000 }, "ErrFieldNotBetween", { field: "sftpPort", min: 1, max: 65535 }],
    [{ publicPort: "80" }, "ErrFieldType", { field: "publicPort", type: "integer" }],
    [{ sftpPort: 8443 }, "ErrFieldEqual", { field1: "sftpPort", field2: "publicPort" }],
    [{ sftpPort: 8080 }, "ErrFieldEqual", { field1: "sftpPort", field2: "privatePort" }],
  ])("refuses %j with %s", async (over, code, metadata) => {
    const res = await api.post("/api/nodes", node({ name: "node-bad", ...over }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, metadata });
  });

  it("accepts IPv4, IPv6 and host names", async () => {
    for (const [i, host] of ["192.168.1.10", "::1", "node-7.games.example.org", "localhost"].entries()) {
      const res = await api.post(
        "/api/nodes",
        node({ name: `hosts-${i}`, publicHost: host, privateHost: host }),
      );
      expect(res.status, host).toBe(200);
      await api.delete(`/api/nodes/${res.body.id}`);
    }
  });

  it("refuses a duplicate name and a missing field", async () => {
    const first = await api.post("/api/nodes", node({ name: "dup" }));
    expect((await api.post("/api/nodes", node({ name: "dup" }))).body.error.code).toBe(
      "ErrDuplicateNodeName",
    );
    expect((await api.put(`/api/nodes/${first.body.id}`, { name: "LocalNode" })).body.error.code).toBe(
      "ErrDuplicateNodeName",
    );
    const { sftpPort: _, ...missing } = node({ name: "missing" });
    expect((await api.post("/api/nodes", missing)).body.error).toMatchObject({
      code: "ErrFieldRequired",
      metadata: { field: "sftpPort" },
    });
    await api.delete(`/api/nodes/${first.body.id}`);
  });

  it("keeps the local node: no delete, an empty deployment, edits change nothing", async () => {
    expect((await api.delete("/api/nodes/0")).body.error.code).toBe("ErrCannotDeleteLocalNode");
    // 200 as in the reference, and nothing secret: the local node has nothing to deploy.
    const local = await api.get("/api/nodes/0/deployment");
    expect(local.status).toBe(200);
    expect(local.body).toEqual({ clientId: ".node_0", clientSecret: "", publicKey: "" });
    const before = (await api.get("/api/nodes/0")).body;
    expect((await api.put("/api/nodes/0", { name: "Renamed" })).status).toBe(204);
    expect((await api.get("/api/nodes/0")).body).toEqual(before);
  });

  it("gives a deployment that is all a daemon needs, and a daemon started from it runs", async () => {
    const created = await api.post(
      "/api/nodes",
      node({
        name: "deployable",
        privateHost: "127.0.0.1",
        privatePort: await freePort(),
        sftpPort: await freePort(),
      }),
    );
    const id = created.body.id;
    const deployment = await api.get(`/api/nodes/${id}/deployment`);
    expect(deployment.status).toBe(200);
    expect(deployment.body).toMatchObject({
      clientId: `.node_${id}`,
      config: { nodeId: id, panelUrl: panel().url },
    });
    expect(deployment.body.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(deployment.body.config.secret).toBe(deployment.body.clientSecret);
    let daemon: DaemonProcess | undefined;
    try {
      daemon = await startDaemon(deployment.body.config);
      const features = await api.get(`/api/nodes/${id}/features`);
      expect(features.status).toBe(200);
      expect(features.body.os).toBe("linux");
    } finally {
      await daemon?.destroy();
      await api.delete(`/api/nodes/${id}`);
    }
  });

  it("answers 404 for an unknown node and 400 for a non-numeric id", async () => {
    expect((await api.get("/api/nodes/999")).status).toBe(404);
    expect((await api.get("/api/nodes/999/features")).status).toBe(404);
    expect((await api.get("/api/nodes/abc")).body.error.code).toBe("ErrFieldType");
  });
});

describe("node API refusals", () => {
  const panel = usePanel();
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/nodes"],
    ["GET", "/api/nodes/0"],
    ["POST", "/api/nodes", node()],
    ["PUT", "/api/nodes/0", { name: "x-node" }],
    ["DELETE", "/api/nodes/1"],
    ["GET", "/api/nodes/1/deployment"],
    ["GET", "/api/nodes/0/deployment"],
    ["GET", "/api/nodes/0/features"],
  ];
  let plain: Client;
  afterAll(() => {});
  beforeAll(async () => {
    plain = await registeredClient(panel(), {
      username: "plainuser",
      email: "plain@example.com",
      password: "plain-pass-1",
    });
  });

  it.each(routes)("%s %s: 401 for anonymous", async (method, path, json) => {
    const anonymous = new PanelClient(panel().url);
    const res = await anonymous.call(method, path, { json });
    expect(res.status).toBe(401);
  });

  it.each(routes)("%s %s: 403 for a user without the nodes scope", async (method, path, json) => {
    const res = await plain.call(method, path, { json });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("ErrMissingScope");
    expect(res.body.error.metadata.scope).toMatch(/^nodes\./);
  });
});
