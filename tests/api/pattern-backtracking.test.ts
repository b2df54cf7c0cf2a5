import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * An egg's variable rules (`regex:/…/`) are checked on the panel against the values users set. An
 * egg comes from any template repository, which a non-administrator with templates.repo.create may
 * add; its pattern `^(a+)+$` and a user's 40-character value held the panel's event loop for hours
 * (2^40 steps). The panel's regular expressions now fall back to V8's linear-time engine once one
 * backtracks too far (server/regexp-guard.ts).
 */
describe("a pattern that backtracks without end does not hold the panel", () => {
  const panel = usePanel();
  const id = "b0a7e001";
  const player = { username: "patterned", email: "patterned@example.com", password: "patterned-pass-1" };
  let admin: PanelClient;
  let user: PanelClient;

  beforeAll(async () => {
    admin = await adminClient(panel());
    user = await registeredClient(panel(), player);
    const definition = echoDefinition();
    definition.data.motd.value = "aaa";
    const made = await admin.put(`/api/servers/${id}`, {
      ...definition,
      egg: { format: "PTDL_v2", rules: { motd: { patterns: [{ source: "^(a+)+$", flags: "" }] } } },
      name: "patterned",
      node: 0,
    });
    expect(made.status, made.text).toBe(200);
    await setServerScopes(panel(), player.email, id, ["server.view", "server.data.edit"]);
  });
  afterAll(async () => {
    await admin?.delete(`/api/servers/${id}`);
  });

  it("refuses the value by the rule, and answers everyone meanwhile", async () => {
    const set = user.post(`/api/servers/${id}/data`, { data: { motd: { value: `${"a".repeat(40)}!` } } });
    const health = await admin.get("/api/health");
    expect(health.status).toBe(200);
    const refused = await set;
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error.code).toBe("ErrVariableInvalid");
    const fine = await user.post(`/api/servers/${id}/data`, { data: { motd: { value: "aaaa" } } });
    expect(fine.status, fine.text).toBe(204);
  });
});
