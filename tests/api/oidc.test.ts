import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { oidcFlow } from "../support/oidc-flow.ts";
import { startIssuer, type TestIssuer } from "../support/oidc-issuer.ts";
import { withPanelDb } from "../support/panel-db.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("single sign-on with OpenID Connect (issue 39)", () => {
  const panel = usePanel();
  let issuer: TestIssuer;
  let admin: PanelClient;

  beforeAll(async () => {
    // The panel's callbacks for the providers these tests add (ids are given in order).
    const callbacks = Array.from({ length: 30 }, (_, i) => `${panel().url}/auth/oidc/${i + 1}/callback`);
    issuer = await startIssuer(callbacks);
    admin = await adminClient(panel());
  });
  afterAll(async () => {
    await issuer?.close();
  });

  const { addProvider, throughProvider, signIn, refusedWith, signedInAs } = oidcFlow(
    panel,
    () => issuer,
    () => admin,
  );

  it("lets administrators add, list, change and delete providers; the secret is write-only", async () => {
    const id = await addProvider({
      name: "Company SSO",
      allowedDomains: ["Corp.Example"],
      roleClaim: "groups",
      roleMap: { admins: "support" },
    });
    const list = await admin.get("/api/oidc-providers");
    const view = list.body.find((p: { id: number }) => p.id === id);
    expect(view).toMatchObject({
      name: "Company SSO",
      issuer: issuer.url,
      clientId: issuer.clientId,
      clientSecretSet: true,
      scopes: ["openid", "email", "profile"],
      createAccounts: false,
      allowedDomains: ["corp.example"],
      roleClaim: "groups",
      roleMap: { admins: "support" },
      enabled: true,
    });
    expect(JSON.stringify(list.body)).not.toContain(issuer.clientSecret);
    const config = await new PanelClient(panel().url).get("/api/config");
    expect(config.body.oidcProviders).toContainEqual({ id, name: "Company SSO" });
    // A PUT without a secret keeps it; a disabled provider leaves the login page.
    const put = await admin.put(`/api/oidc-providers/${id}`, {
      name: "Company SSO",
      issuer: issuer.url,
      clientId: issuer.clientId,
      enabled: false,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.clientSecretSet).toBe(true);
    expect((await new PanelClient(panel().url).get("/api/config")).body.oidcProviders).not.toContainEqual({
      id,
      name: "Company SSO",
    });
    expect((await admin.delete(`/api/oidc-providers/${id}`)).status).toBe(204);
    expectError(await admin.delete(`/api/oidc-providers/${id}`), 404, "ErrOidcProviderNotFound");
    expectError(
      await admin.post("/api/oidc-providers", { name: "x", issuer: "http://sso.example", clientId: "c" }),
      400,
      "ErrOidcIssuerInvalid",
    );
  });

  it("refuses the providers' routes to users who are not administrators", async () => {
    const user = await registeredClient(panel(), newUser("oidc-nonadmin"));
    const body = { name: "x", issuer: issuer.url, clientId: "c" };
    expectError(await user.get("/api/oidc-providers"), 403, "ErrMissingScope", { scope: "admin" });
    expectError(await user.post("/api/oidc-providers", body), 403, "ErrMissingScope", { scope: "admin" });
    expectError(await user.put("/api/oidc-providers/1", body), 403, "ErrMissingScope", { scope: "admin" });
    expectError(await user.delete("/api/oidc-providers/1"), 403, "ErrMissingScope", { scope: "admin" });
  });

  it("makes an account at the first sign-in when the provider creates accounts, and signs it in again after", async () => {
    const id = await addProvider({ createAccounts: true });
    const alice = { sub: "alice-1", email: "alice.oidc@corp.example", preferred_username: "alice.oidc" };
    const first = await signIn(id, alice);
    expect(first.res.status, first.res.text).toBe(302);
    expect(first.res.headers.get("location")).toBe("/");
    expect(await signedInAs(first.client)).toBe(alice.email);
    expect((await first.client.get("/api/self")).body.username).toBe("alice.oidc");
    const again = await signIn(id, alice);
    expect((await again.client.get("/api/self")).body.id).toBe((await first.client.get("/api/self")).body.id);
  });

  it("gives the roles the provider's role claim maps to at each sign-in, and keeps the roles it does not map", async () => {
    const role = async (name: string, scopes: string[]) => {
      const res = await admin.post("/api/roles", { name, scopes });
      expect(res.status, res.text).toBe(200);
      return res.body.id as number;
    };
    const staff = await role("SSO staff", ["users.info.view"]);
    const ops = await role("SSO ops", ["nodes.view"]);
    const manual = await role("Given by hand", ["templates.view"]);
    // A value maps to a role by its id or by its name; a mapped role that is gone is passed over.
    const gone = await role("SSO gone", []);
    expect((await admin.delete(`/api/roles/${gone}`)).status).toBe(204);
    const id = await addProvider({
      createAccounts: true,
      roleClaim: "groups",
      roleMap: { staff: String(staff), ops: "SSO ops", gone: String(gone) },
    });
    const carol = { sub: "carol-1", email: "carol.oidc@corp.example", groups: ["staff", "gone", "other"] };
    const first = await signIn(id, carol);
    expect(first.res.headers.get("location")).toBe("/");
    const userId: number = (await first.client.get("/api/self")).body.id;
    const rolesOf = async () => (await admin.get(`/api/users/${userId}/roles`)).body.roles;
    expect(await rolesOf()).toEqual([staff]);
    // The session the sign-in opened holds the role's scopes.
    expect((await first.client.get(`/api/users/${userId}`)).status).toBe(200);
    expect((await first.client.get("/api/nodes")).status).toBe(403);

    // An administrator's role stays; the provider's claim now says ops, not staff.
    expect((await admin.put(`/api/users/${userId}/roles`, { roles: [staff, manual] })).status).toBe(200);
    const again = await signIn(id, { ...carol, groups: ["ops"] });
    expect(again.res.headers.get("location")).toBe("/");
    expect(await rolesOf()).toEqual([ops, manual].sort((a, b) => a - b));
    expect((await again.client.get("/api/nodes")).status).toBe(200);
    expect((await again.client.get(`/api/users/${userId}`)).status).toBe(403);
    // No claim at all: the mapped roles go, the hand-given one stays.
    const bare = await signIn(id, { sub: carol.sub, email: carol.email });
    expect(bare.res.headers.get("location")).toBe("/");
    expect(await rolesOf()).toEqual([manual]);
  });

  it("refuses a first sign-in when the provider does not create accounts, and does not take over an address in use", async () => {
    const closed = await addProvider({ createAccounts: false });
    refusedWith(
      (await signIn(closed, { sub: "stranger", email: "stranger@corp.example" })).res,
      "ErrOidcNoAccount",
    );
    const open = await addProvider({ createAccounts: true });
    const owner = newUser("oidc-owner");
    await registeredClient(panel(), owner);
    const claimed = await signIn(open, { sub: "impostor", email: owner.email });
    refusedWith(claimed.res, "ErrOidcEmailTaken");
    expectError(await claimed.client.get("/api/self"), 401, "ErrTokenInvalid");
  });

  it("refuses addresses outside the allowed domains", async () => {
    const id = await addProvider({ createAccounts: true, allowedDomains: ["corp.example"] });
    refusedWith(
      (await signIn(id, { sub: "outsider", email: "outsider@elsewhere.example" })).res,
      "ErrOidcDomain",
    );
    const inside = await signIn(id, { sub: "insider", email: "insider@corp.example" });
    expect(await signedInAs(inside.client)).toBe("insider@corp.example");
  });

  it("refuses a changed state, a state from another browser, a changed nonce and a replayed callback", async () => {
    const id = await addProvider({ createAccounts: true });
    const bob = { sub: "bob-1", email: "bob.oidc@corp.example" };
    const changed = await signIn(id, bob, {
      tamper: (back) => back.searchParams.set("state", "not-the-state"),
    });
    refusedWith(changed.res, "ErrOidcState");
    // The provider's answer taken to a browser that did not start the sign-in.
    const stolen = new PanelClient(panel().url);
    issuer.signInAs(bob);
    const start = await stolen.get(`/auth/oidc/${id}`);
    let callback = "";
    await throughProvider(start.headers.get("location") ?? "", new PanelClient(panel().url), (back) => {
      callback = back.pathname + back.search;
    });
    // That callback, asked by a browser without the sign-in's state cookie: refused.
    refusedWith(await new PanelClient(panel().url).get(callback), "ErrOidcState");
    const nonce = await signIn(id, bob, {
      editAuth: (auth) => auth.searchParams.set("nonce", "another-nonce"),
    });
    refusedWith(nonce.res, "ErrOidcRefused");
    // A callback that succeeded once is not taken twice.
    const client = new PanelClient(panel().url);
    await client.prime();
    issuer.signInAs(bob);
    const begun = await client.get(`/auth/oidc/${id}`);
    const stateCookie = client.cookies.get("outpost_oidc_state");
    let replay = "";
    const done = await throughProvider(begun.headers.get("location") ?? "", client, (back) => {
      replay = back.pathname + back.search;
    });
    expect(done.headers.get("location")).toBe("/");
    const again = new PanelClient(panel().url);
    again.cookies.set("outpost_oidc_state", stateCookie ?? "");
    refusedWith(await again.get(replay), "ErrOidcState");
  });

  it("keeps nothing for a sign-in started without an account until the provider answered it", async () => {
    const id = await addProvider({ createAccounts: true });
    const stored = () =>
      withPanelDb(panel(), async (db) =>
        Number(
          (
            await db
              .selectFrom("sign_in_challenges")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    const before = await stored();
    // Anyone may start one as often as they like: each start used to leave a row for ten minutes.
    for (let i = 0; i < 30; i++) {
      const start = await new PanelClient(panel().url).get(`/auth/oidc/${id}`);
      expect(start.status, start.text).toBe(302);
      expect(start.headers.get("location") ?? "").toMatch(new RegExp(`^${issuer.url}`));
    }
    expect(await stored()).toBe(before);
    // A sign-in still goes through, and its callback is still taken once.
    const carol = { sub: "flood-1", email: "flood.oidc@corp.example" };
    const client = new PanelClient(panel().url);
    await client.prime();
    issuer.signInAs(carol);
    const begun = await client.get(`/auth/oidc/${id}`);
    const stateCookie = client.cookies.get("outpost_oidc_state");
    let replay = "";
    const done = await throughProvider(begun.headers.get("location") ?? "", client, (back) => {
      replay = back.pathname + back.search;
    });
    expect(done.headers.get("location")).toBe("/");
    expect(await signedInAs(client)).toBe(carol.email);
    const again = new PanelClient(panel().url);
    again.cookies.set("outpost_oidc_state", stateCookie ?? "");
    refusedWith(await again.get(replay), "ErrOidcState");
  });

  it("refuses an ID token whose signature is not by the provider's published keys", async () => {
    // A provider of its own, so the panel fetches its keys afresh (they are kept per provider).
    const forged = await addProvider({ createAccounts: true });
    issuer.publishOtherKey(true);
    try {
      const { res } = await signIn(forged, { sub: "erin-1", email: "erin.oidc@corp.example" });
      refusedWith(res, "ErrOidcRefused");
    } finally {
      issuer.publishOtherKey(false);
    }
    expect((await admin.get("/api/users?email=erin.oidc%40corp.example")).body.users).toEqual([]);
    // The provider's real keys let the same person in.
    const honest = await addProvider({ createAccounts: true });
    const { client, res } = await signIn(honest, { sub: "erin-1", email: "erin.oidc@corp.example" });
    expect(res.headers.get("location")).toBe("/");
    expect(await signedInAs(client)).toBe("erin.oidc@corp.example");
  });

  it("counts refused callbacks in the sign-in throttle: after five, even a good one waits", async () => {
    const id = await addProvider({ createAccounts: true });
    const frank = { sub: "frank-1", email: "frank.oidc@corp.example" };
    for (let i = 0; i < 5; i++)
      refusedWith(
        (await signIn(id, frank, { tamper: (back) => back.searchParams.set("state", `wrong-${i}`) })).res,
        "ErrOidcState",
      );
    const held = await signIn(id, frank);
    refusedWith(held.res, "ErrTooManyAttempts");
    expect(
      Number(new URL(held.res.headers.get("location") ?? "", panel().url).searchParams.get("retryAfter")),
    ).toBeGreaterThan(0);
    expect((await held.client.get("/api/self")).status).toBe(401);
  });

  it("refuses a provider that is not the issuer it is set up as", async () => {
    // The same provider reached under another name: its discovery document names another issuer.
    const id = await addProvider({ issuer: `http://localhost:${issuer.port}`, createAccounts: true });
    const { res } = await signIn(id, { sub: "carol", email: "carol@corp.example" });
    refusedWith(res, "ErrOidcDiscovery");
  });

  it("links a provider to an existing account from the account page, signs in through the link, and unlinks it", async () => {
    const id = await addProvider({ createAccounts: false });
    const dave = newUser("oidc-dave");
    const own = await registeredClient(panel(), dave);
    const account = { sub: "dave-at-idp", email: "dave.work@corp.example" };
    issuer.signInAs(account);
    const start = await own.post(`/api/self/oidc-links/${id}`);
    expect(start.status, start.text).toBe(200);
    const linked = await throughProvider(start.body.url, own);
    expect(linked.headers.get("location")).toBe("/self?linked=1");
    const links = await own.get("/api/self/oidc-links");
    expect(links.body).toEqual([
      expect.objectContaining({ providerId: id, providerName: "Test SSO", email: account.email }),
    ]);
    // Now that subject signs in to this account, though its address differs.
    const viaLink = await signIn(id, account);
    expect(await signedInAs(viaLink.client)).toBe(dave.email);
    // The same subject cannot be linked to a second account.
    const eve = await registeredClient(panel(), newUser("oidc-eve"));
    issuer.signInAs(account);
    const twice = await eve.post(`/api/self/oidc-links/${id}`);
    refusedWith(await throughProvider(twice.body.url, eve), "ErrOidcLinked");
    expectError(await eve.delete(`/api/self/oidc-links/${links.body[0].id}`), 404, "ErrOidcLinkNotFound");
    expect((await own.delete(`/api/self/oidc-links/${links.body[0].id}`)).status).toBe(204);
    refusedWith((await signIn(id, account)).res, "ErrOidcNoAccount");
  });

  it("records sign-ins through a provider, done and refused, and the providers' changes in the activity log", async () => {
    const created = await admin.get("/api/activity?action=oidcProvider.create");
    expect(created.body.activity.length).toBeGreaterThan(0);
    expect(JSON.stringify(created.body)).not.toContain(issuer.clientSecret);
    const done = await admin.get("/api/activity?action=auth.login");
    expect(JSON.stringify(done.body)).toContain('"method":"oidc"');
    const failed = await admin.get("/api/activity?action=auth.login.failed");
    expect(JSON.stringify(failed.body)).toContain("ErrOidcDomain");
    const linked = await admin.get("/api/activity?action=self.oidc.link");
    expect(linked.body.activity.length).toBeGreaterThan(0);
  });
});
