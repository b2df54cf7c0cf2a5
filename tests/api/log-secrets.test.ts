import { describe, expect, it } from "vitest";
import { createEchoServer } from "../support/echo-server.ts";
import { cookieValue, setCookie } from "../support/expect-api.ts";
import { waitUntil } from "../support/poll.ts";
import { adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

// No secret reaches the panel's log at any level (issue 13 #15): the panel runs at debug level,
// where every request is logged, through an invitation from grant to first sign-in.

describe("the panel's log at debug level holds no secret", () => {
  const panel = usePanel({ env: { OUTPOST_LOG_LEVEL: "debug", OUTPOST_LOG_FORMAT: "json" } });

  it("an invitation's token, the chosen password and the session never appear in it", async () => {
    const admin = await adminClient(panel());
    await createEchoServer(admin, "10950001", { name: "Logged world", users: [] });
    const granted = await admin.put(
      `/api/servers/10950001/user/${encodeURIComponent("logged@example.com")}`,
      {
        scopes: ["server.console"],
      },
    );
    expect(granted.status, granted.text).toBe(200);
    const link = new URL(granted.body.invite.url);
    const token = link.searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThan(20);

    // The invitee's browser opens the link (the page load carries the token in its address) ...
    const browser = new PanelClient(panel().url);
    // (This panel has no web app built: the answer is a 503, but the request is logged all the same.)
    await browser.get(`${link.pathname}${link.search}`, { headers: { accept: "text/html" } });
    await browser.prime();
    // ... accepts with it, and signs in later with the chosen password.
    const password = "logged-secret-Vb93k";
    const accepted = await browser.post("/auth/invite", {
      token,
      email: "logged@example.com",
      username: "logged-person",
      password,
    });
    expect(accepted.status, accepted.text).toBe(200);
    const session = cookieValue(setCookie(accepted, "outpost_auth")) ?? "";
    expect(session).not.toBe("");
    const again = new PanelClient(panel().url);
    expect((await again.login("logged@example.com", password)).status).toBe(200);
    expect((await again.get("/api/self")).status).toBe(200);

    // Every request is logged at debug: wait for the last one, then look for the secrets.
    await waitUntil(async () => panel().logs().includes("/api/self"), 10_000, 50);
    const logs = panel().logs();
    // The page load is logged, its token withheld.
    expect(logs).toContain("/auth/invite?token=[redacted]&email=logged%40example.com");
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(password);
    expect(logs).not.toContain(session);
    expect(logs).not.toContain(again.cookies.get("outpost_auth"));

    // Each request's lines carry its id: the same on its "incoming request" and "request completed"
    // (the latter is written once the answer went out: waited for).
    const selfCalls = () => {
      const lines = panel()
        .logs()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      return lines
        .filter((l) => l.msg === "incoming request" && l.req?.url === "/api/self")
        .map((l) => ({
          id: l.reqId,
          completed: lines.filter((c) => c.msg === "request completed" && c.reqId === l.reqId),
        }));
    };
    await waitUntil(async () => selfCalls().every((call) => call.completed.length > 0), 10_000, 50);
    expect(selfCalls().length).toBeGreaterThan(0);
    for (const call of selfCalls()) {
      expect(call.id).toMatch(/^req-/);
      expect(call.completed).toHaveLength(1);
    }
  });
});
