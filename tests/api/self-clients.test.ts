import { afterAll, describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { setGlobalScopes } from "../support/panel-db.ts";
import { mailToInbox, SmtpInbox } from "../support/smtp-inbox.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("personal OAuth2 clients (/api/self/oauth2)", () => {
  const panel = usePanel();
  const token = (clientId: string, secret: string) =>
    new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    });

  it("creates a client whose secret is shown once and works at /oauth2/token", async () => {
    const user = newUser("ownclient");
    const api = await registeredClient(panel(), user);
    expect((await api.get("/api/self/oauth2")).body).toEqual([]);
    const res = await api.post("/api/self/oauth2", { name: "  backup script ", description: "nightly" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{48}$/),
      name: "backup script",
      description: "nightly",
    });
    const list = await api.get("/api/self/oauth2");
    expect(list.body).toEqual([{ ...res.body, client_secret: "" }]);
    const granted = await token(res.body.client_id, res.body.client_secret);
    expect(granted.status).toBe(200);
    const self = await new PanelClient(panel().url).get("/api/self", { bearer: granted.body.access_token });
    expect(self.body.email).toBe(user.email);
  });

  it("deleting a client ends the tokens it was issued; another user's client is not found", async () => {
    const owner = newUser("delowner");
    const api = await registeredClient(panel(), owner);
    const other = await registeredClient(panel(), newUser("delother"));
    const { client_id, client_secret } = (await api.post("/api/self/oauth2", { name: "temp" })).body;
    const bearer = (await token(client_id, client_secret)).body.access_token;
    expectError(await other.delete(`/api/self/oauth2/${client_id}`), 404, "ErrClientNotFound");
    expect((await other.get("/api/self/oauth2")).body).toEqual([]);
    expect((await api.delete(`/api/self/oauth2/${client_id}`)).status).toBe(204);
    expectError(await api.delete(`/api/self/oauth2/${client_id}`), 404, "ErrClientNotFound");
    expectError(await new PanelClient(panel().url).get("/api/self", { bearer }), 401, "ErrTokenInvalid");
    expect((await token(client_id, client_secret)).status).toBe(401);
  });

  it("keeps at most 100 clients a user (issue 13: any signed-in user could fill the database)", async () => {
    const api = await registeredClient(panel(), newUser("manyclients"));
    for (let i = 0; i < 100; i++) {
      expect((await api.post("/api/self/oauth2", { name: `c${i}` })).status).toBe(200);
    }
    expectError(await api.post("/api/self/oauth2", { name: "one more" }), 400, "ErrTooManyClients", {
      limit: 100,
    });
    expect((await api.get("/api/self/oauth2")).body).toHaveLength(100);
  });

  it("checks name and description", async () => {
    const api = await registeredClient(panel(), newUser("clientfields"));
    expectError(await api.post("/api/self/oauth2", { name: "   " }), 400, "ErrFieldRequired", {
      field: "name",
    });
    expect((await api.post("/api/self/oauth2", { name: "x".repeat(101) })).status).toBe(400);
    expect((await api.post("/api/self/oauth2", { name: "ok", description: "d".repeat(4001) })).status).toBe(
      400,
    );
  });

  it("refuses anonymous callers (401) and users without self.clients (403)", async () => {
    const anonymous = new PanelClient(panel().url);
    await anonymous.prime();
    const user = newUser("noclients");
    const limited = await registeredClient(panel(), user);
    await setGlobalScopes(panel(), user.email, ["login", "self.edit"]);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/self/oauth2"],
      ["POST", "/api/self/oauth2", { name: "x" }],
      ["DELETE", "/api/self/oauth2/00000000-0000-4000-8000-000000000000"],
    ];
    for (const [method, path, json] of calls) {
      const opts = json === undefined ? {} : { json };
      expectError(await anonymous.call(method, path, opts), 401, "ErrTokenInvalid");
      expectError(await limited.call(method, path, opts), 403, "ErrMissingScope");
    }
  });
});

describe("personal OAuth clients are e-mailed to their owner", () => {
  const panel = usePanel();
  const inbox = new SmtpInbox();
  afterAll(async () => {
    await inbox.stop();
  });

  it("on creation and deletion, without the secret", async () => {
    const port = await inbox.start();
    const admin = await adminClient(panel());
    await mailToInbox(admin, port);
    const user = newUser("clientmail");
    const api = await registeredClient(panel(), user);
    const created = (await api.post("/api/self/oauth2", { name: "mailed" })).body;
    const first = await inbox.nth(1);
    expect(first.to).toEqual([user.email]);
    expect(first.headers.get("subject")).toBe("Outpost: new OAuth client");
    expect(first.raw).not.toContain(created.client_secret);
    expect((await api.delete(`/api/self/oauth2/${created.client_id}`)).status).toBe(204);
    expect((await inbox.nth(2)).headers.get("subject")).toBe("Outpost: OAuth client deleted");
  });
});
