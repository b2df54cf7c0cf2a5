import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newUser } from "../support/expect-api.ts";
import { openLive } from "../support/live-client.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { adminClient, PanelClient } from "../support/test-panel.ts";

/**
 * Two panels on one PostgreSQL database, as behind a load balancer: what
 * limits is counted in the database (server/panel/shared-state.ts), so a
 * client spreading its attempts or sockets over the panels gets no more than
 * from one. (Before, each panel counted on its own: twice the guesses, twice
 * the sockets.)
 */
const onPostgres = process.env.OUTPOST_TEST_DB === "postgres";
const perSession = 4;

describe.runIf(onPostgres)("throttles and caps shared by panels on one database", () => {
  let a: PanelProcess;
  let b: PanelProcess;
  beforeAll(async () => {
    const env = {
      // Both panels trust loopback as their proxy: the client's address is the X-Forwarded-For hop.
      OUTPOST_TRUST_PROXY: "127.0.0.1",
      OUTPOST_MAX_CONNECTIONS_PER_SESSION: String(perSession),
    };
    a = await startPanel({ postgresUrl: inject("postgresUrl"), env });
    b = await startPanel({ databaseUrl: a.databaseUrl, env });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("holds back the sixth failed sign-in of a client on an account, whichever panels the six reached", async () => {
    const user = newUser("spread");
    expect((await (await adminClient(a)).post("/api/users", user)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const client = new PanelClient((i % 2 ? b : a).url);
      await client.prime();
      const res = await client.post(
        "/auth/login",
        { email: user.email, password: `wrong-${i}` },
        { headers: { "x-forwarded-for": "203.0.113.20" } },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
  });

  it("caps one session's sockets over both panels together", async () => {
    const api = await adminClient(a);
    const open = [];
    for (let i = 0; i < perSession; i++) open.push(await openLive(api, { baseUrl: (i % 2 ? b : a).url }));
    for (const panel of [a, b])
      expect(String(await openLive(api, { baseUrl: panel.url }).catch((e) => e))).toContain("429");
    for (const s of open) s.close();
  });

  it("a sign-out through one panel closes the session's sockets on the other", async () => {
    const api = await adminClient(a);
    const onB = await openLive(api, { baseUrl: b.url });
    const kept = await openLive(await adminClient(b));
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
    expect((await onB.closed).code).toBe(4001);
    // Another session of the same user keeps its socket.
    let keptClosed = false;
    void kept.closed.then(() => {
      keptClosed = true;
    });
    await new PanelClient(b.url).get("/api/health");
    expect(keptClosed).toBe(false);
    kept.close();
  });
});
