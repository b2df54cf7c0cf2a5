import { beforeAll, describe, expect, it } from "vitest";
import { defaultServerUserScopes } from "../../server/contract/scopes.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { cookieValue, expectError, setCookie } from "../support/expect-api.ts";
import { setServerScopes, withPanelDb } from "../support/panel-db.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const serverA = "5e4a0001";
const serverB = "5e4b0002";
const users = (id: string) => `/api/servers/${id}/user`;
const user = (id: string, email: string) => `/api/servers/${id}/user/${encodeURIComponent(email)}`;

const owner = { username: "sharer-owner", email: "sharer-owner@example.com", password: "owner-pass-1" };
const friend = { username: "sharer-friend", email: "friend@example.com", password: "friend-pass-1" };
const viewer = { username: "sharer-viewer", email: "viewer@example.com", password: "viewer-pass-1" };
const adder = { username: "sharer-adder", email: "adder@example.com", password: "adder-pass-1" };

/** The scopes a user has on a server, as the list shows them (sorted for comparison). */
async function scopesOf(api: Client, id: string, email: string): Promise<string[] | undefined> {
  const res = await api.get(user(id, email));
  if (res.status === 404) return undefined;
  expect(res.status, res.text).toBe(200);
  return [...res.body[0].scopes].sort();
}

/** The link's token and e-mail, checked to point at this panel's invite screen. */
function inviteOf(panelUrl: string, answer: { status: number; text: string; body: any }) {
  expect(answer.status, answer.text).toBe(200);
  const url = new URL(answer.body.invite.url);
  expect(`${url.origin}${url.pathname}`).toBe(`${panelUrl}/auth/invite`);
  return { token: url.searchParams.get("token") ?? "", email: url.searchParams.get("email") ?? "" };
}

async function anonymous(url: string): Promise<Client> {
  const client = new PanelClient(url);
  await client.prime();
  return client;
}

describe("server users", () => {
  const panel = usePanel();
  let admin: Client;
  let ownerApi: Client;
  let friendApi: Client;
  let viewerApi: Client;
  let adderApi: Client;

  beforeAll(async () => {
    admin = await adminClient(panel());
    ownerApi = await registeredClient(panel(), owner);
    friendApi = await registeredClient(panel(), friend);
    viewerApi = await registeredClient(panel(), viewer);
    adderApi = await registeredClient(panel(), adder);
    await createEchoServer(admin, serverA, { name: "Shared world", users: [owner.username] });
    await createEchoServer(admin, serverB, { name: "Other world", users: [owner.username] });
    await setServerScopes(panel(), viewer.email, serverA, ["server.view"]);
    await setServerScopes(panel(), adder.email, serverA, [
      "server.view",
      "server.users.create",
      "server.console",
    ]);
  });

  it("lists the users with a row on the server, and one by e-mail", async () => {
    const list = await admin.get(users(serverA));
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((u: { email: string }) => u.email).sort()).toEqual(
      [adder.email, owner.email, viewer.email].sort(),
    );
    const one = await ownerApi.get(user(serverA, owner.email.toUpperCase()));
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    expect(one.body[0]).toMatchObject({ username: owner.username, email: owner.email });
    expect(one.body[0].scopes).toEqual(expect.arrayContaining(["server.view", "server.users.edit"]));
    expect(one.body[0]).not.toHaveProperty("invited");
    expectError(await ownerApi.get(user(serverA, friend.email)), 404, "ErrUserNotFound");
    expectError(await admin.get(user(serverA, "nobody@example.com")), 404, "ErrUserNotFound");
    // A missing server: 404 for an administrator, 403 for anyone else (reference §2.2).
    expectError(await admin.get(users("0badf00d")), 404, "ErrServerNotFound");
    expect((await ownerApi.get(users("0badf00d"))).status).toBe(403);
  });

  it("an administrator grants a registered user scopes; server.view always comes with them", async () => {
    const put = await admin.put(user(serverA, friend.email), {
      scopes: ["server.console", "server.files.view"],
    });
    expect(put.status, put.text).toBe(204);
    expect(put.text).toBe("");
    expect(await scopesOf(admin, serverA, friend.email)).toEqual([
      "server.console",
      "server.files.view",
      "server.view",
    ]);
    const mine = await friendApi.get("/api/servers");
    expect(mine.body.servers.map((s: { id: string }) => s.id)).toEqual([serverA]);
    expect((await friendApi.get(`/api/servers/${serverA}/console`)).status).toBe(200);
    expect((await friendApi.get(`/api/servers/${serverA}/stats`)).status).toBe(403);
    // An administrator replaces the scopes wholesale.
    expect((await admin.put(user(serverA, friend.email), { scopes: ["server.stats"] })).status).toBe(204);
    expect(await scopesOf(admin, serverA, friend.email)).toEqual(["server.stats", "server.view"]);
    expect((await friendApi.get(`/api/servers/${serverA}/console`)).status).toBe(403);
  });

  it("refuses scopes that are not server scopes, bad e-mails and bad bodies, changing nothing", async () => {
    for (const scope of ["admin", "login", "nodes.view", "server.nonsense", ""]) {
      const res = await admin.put(user(serverA, friend.email), { scopes: ["server.console", scope] });
      expectError(res, 400, "ErrFieldInvalid", { field: "scopes", scope });
    }
    expectError(
      await admin.put(user(serverA, friend.email), { scopes: "server.console" }),
      400,
      "ErrFieldType",
    );
    expectError(await admin.put(user(serverA, "not-an-address"), { scopes: [] }), 400, "ErrFieldNotEmail");
    expect(await scopesOf(admin, serverA, friend.email)).toEqual(["server.stats", "server.view"]);
    expect((await admin.get(users(serverA))).body.map((u: { email: string }) => u.email)).not.toContain(
      "not-an-address",
    );
  });

  it("a grant without scopes (PufferPanel's client sends none) gives the Viewer preset", async () => {
    const newcomer = {
      username: "sharer-newcomer",
      email: "newcomer@example.com",
      password: "newcomer-pass-1",
    };
    await registeredClient(panel(), newcomer);
    // PufferPanel's client sends the user row it shows, which has no scopes.
    const put = await admin.put(user(serverB, newcomer.email), { email: newcomer.email });
    expect(put.status, put.text).toBe(204);
    // Viewer: see the server, whether it runs, its console and its files; nothing to change.
    expect(await scopesOf(admin, serverB, newcomer.email)).toEqual(
      ["server.console", "server.files.view", "server.stats", "server.status", "server.view"].sort(),
    );
    expect([...defaultServerUserScopes].sort()).toEqual(await scopesOf(admin, serverB, newcomer.email));
  });

  it("a non-admin editor toggles only the scopes they hold; the target's others stay as they were", async () => {
    // server.backup.view is not among the owner's default scopes; server.console and files are.
    expect(
      (await admin.put(user(serverA, friend.email), { scopes: ["server.backup.view", "server.console"] }))
        .status,
    ).toBe(204);
    const put = await ownerApi.put(user(serverA, friend.email), {
      scopes: ["server.files.edit", "server.delete", "server.admin"],
    });
    expect(put.status, put.text).toBe(204);
    // console removed (held, not asked), files.edit added (held, asked), backup.view kept (not held),
    // delete and admin not given (not held).
    expect(await scopesOf(admin, serverA, friend.email)).toEqual([
      "server.backup.view",
      "server.files.edit",
      "server.view",
    ]);
  });

  it("no one raises their own scopes beyond what they hold", async () => {
    const before = await scopesOf(admin, serverA, owner.email);
    const everything = ["server.admin", "server.delete", "server.backup.create", ...(before ?? [])];
    expect((await ownerApi.put(user(serverA, owner.email), { scopes: everything })).status).toBe(204);
    expect(await scopesOf(admin, serverA, owner.email)).toEqual(before);
    expect((await ownerApi.delete(`/api/servers/${serverA}`)).status).toBe(403);
    // Dropping one's own scope is allowed (and an administrator gives it back).
    const fewer = (before ?? []).filter((s) => s !== "server.stop");
    expect((await ownerApi.put(user(serverA, owner.email), { scopes: fewer })).status).toBe(204);
    expect(await scopesOf(admin, serverA, owner.email)).toEqual(fewer);
    expect((await admin.put(user(serverA, owner.email), { scopes: before })).status).toBe(204);
  });

  it("server.users.create adds someone new to the server but changes no one's scopes", async () => {
    const add = await adderApi.put(user(serverA, "fresh@example.com"), {
      scopes: ["server.console"],
    });
    // An unknown address: an invitation, with only what the adder holds; no mail provider, and
    // the adder is no administrator, so no link either.
    expect(add.status, add.text).toBe(200);
    expect(add.body).toEqual({ invite: { mailed: false } });
    expect(await scopesOf(admin, serverA, "fresh@example.com")).toEqual(["server.console", "server.view"]);
    const change = await adderApi.put(user(serverA, friend.email), { scopes: ["server.console"] });
    expectError(change, 403, "ErrMissingScope", { scope: "server.users.edit" });
    expect(await scopesOf(admin, serverA, friend.email)).toEqual([
      "server.backup.view",
      "server.files.edit",
      "server.view",
    ]);
    expect((await admin.delete(user(serverA, "fresh@example.com"))).status).toBe(204);
  });

  it("removes a user's row on this server and nothing else", async () => {
    expect((await admin.put(user(serverB, friend.email), { scopes: ["server.status"] })).status).toBe(204);
    // The owner may not remove someone holding a scope the owner lacks there.
    expectError(await ownerApi.delete(user(serverA, friend.email)), 403, "ErrMissingScope", {
      scope: "server.backup.view",
    });
    expect((await admin.delete(user(serverA, friend.email))).status).toBe(204);
    expectError(await admin.delete(user(serverA, friend.email)), 404, "ErrUserNotFound");
    expectError(await admin.delete(user(serverA, "nobody@example.com")), 404, "ErrUserNotFound");
    expect(await scopesOf(admin, serverA, friend.email)).toBeUndefined();
    expect(await scopesOf(admin, serverB, friend.email)).toEqual(["server.status", "server.view"]);
    expect((await friendApi.get(`/api/servers/${serverA}`)).status).toBe(403);
    expect((await friendApi.get("/api/servers")).body.servers.map((s: { id: string }) => s.id)).toEqual([
      serverB,
    ]);
    expect((await new PanelClient(panel().url).login(friend.email, friend.password)).status).toBe(200);
    // A user the owner's scopes cover may be removed by the owner, and one may always leave.
    expect((await ownerApi.put(user(serverA, friend.email), { scopes: ["server.console"] })).status).toBe(
      204,
    );
    expect((await ownerApi.delete(user(serverA, friend.email))).status).toBe(204);
    expect((await admin.put(user(serverA, friend.email), { scopes: ["server.backup.view"] })).status).toBe(
      204,
    );
    expect((await friendApi.delete(user(serverA, friend.email))).status).toBe(403); // no server.users.delete
    await setServerScopes(panel(), friend.email, serverA, ["server.view", "server.users.delete"]);
    expect((await friendApi.delete(user(serverA, friend.email))).status).toBe(204);
  });

  it("refuses every call without its scope, and anonymous calls", async () => {
    expectError(await viewerApi.get(users(serverA)), 403, "ErrMissingScope", { scope: "server.users.view" });
    expectError(await viewerApi.get(user(serverA, owner.email)), 403, "ErrMissingScope", {
      scope: "server.users.view",
    });
    expectError(await viewerApi.put(user(serverA, friend.email), { scopes: [] }), 403, "ErrMissingScope", {
      scope: "server.users.edit",
    });
    expectError(
      await viewerApi.put(user(serverA, "new-one@example.com"), { scopes: [] }),
      403,
      "ErrMissingScope",
    );
    expectError(await viewerApi.delete(user(serverA, owner.email)), 403, "ErrMissingScope", {
      scope: "server.users.delete",
    });
    // A user with no row on the server at all.
    expect((await friendApi.get(users(serverA))).status).toBe(403);
    expect((await friendApi.put(user(serverA, friend.email), { scopes: ["server.admin"] })).status).toBe(403);
    const nobody = await anonymous(panel().url);
    expect((await nobody.get(users(serverA))).status).toBe(401);
    expect((await nobody.put(user(serverA, friend.email), { scopes: [] })).status).toBe(401);
    expect((await nobody.delete(user(serverA, owner.email))).status).toBe(401);
    expect((await admin.get(users(serverA))).body.map((u: { email: string }) => u.email)).not.toContain(
      "new-one@example.com",
    );
  });

  describe("an invite link reaches only an administrator or the mailbox (issue 13)", () => {
    const inviteSessions = (email: string) =>
      withPanelDb(panel(), (db) =>
        db
          .selectFrom("sessions")
          .innerJoin("users", "users.id", "sessions.user_id")
          .select("sessions.token_hash")
          .where("sessions.kind", "=", "invite")
          .where("users.email", "=", email)
          .execute(),
      );

    it("granting an address pending elsewhere gives a non-admin no link, and leaves its links alone", async () => {
      const victim = "pending-victim@example.com";
      const adminLink = inviteOf(panel().url, await admin.put(user(serverB, victim), { scopes: [] }));
      const before = await inviteSessions(victim);
      // The adder holds only server.users.create on their server; the owner holds server.users.edit.
      for (const [editor, id] of [
        [adderApi, serverA],
        [ownerApi, serverA],
        [ownerApi, serverB],
      ] as const) {
        const res = await editor.put(user(id, victim), { scopes: ["server.console"] });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({ invite: { mailed: false } });
      }
      expect(await inviteSessions(victim)).toEqual(before);
      // The grant is recorded all the same, and the mailbox's link brings it.
      expect(await scopesOf(admin, serverA, victim)).toEqual(["server.console", "server.view"]);
      const nobody = await anonymous(panel().url);
      const body = { ...adminLink, username: "pending-victim", password: "victim-pass-1" };
      expect((await nobody.post("/auth/invite", body)).status).toBe(200);
      const servers = (await nobody.get("/api/servers")).body.servers.map((s: { id: string }) => s.id);
      expect(servers.sort()).toEqual([serverA, serverB].sort());
    });

    it("a non-admin's invitation squats no address: its owner registers, without the grants", async () => {
      const address = "squatted@example.com";
      const res = await ownerApi.put(user(serverA, address), { scopes: ["server.console"] });
      expect(res.body).toEqual({ invite: { mailed: false } });
      expect(await inviteSessions(address)).toEqual([]);
      const owned = await anonymous(panel().url);
      const registered = await owned.post("/auth/register", {
        username: "squat-owner",
        email: address,
        password: "squat-pass-12",
      });
      expect(registered.status, registered.text).toBe(200);
      expect((await owned.get("/api/servers")).body.servers).toEqual([]);
      expect(await scopesOf(admin, serverA, address)).toBeUndefined();
      // An account that chose a password is no invitee: registering it again is refused as ever.
      const again = await (await anonymous(panel().url)).post("/auth/register", {
        username: "squat-other",
        email: address,
        password: "squat-pass-34",
      });
      expectError(again, 409, "ErrUserExists", { field: "email" });
    });
  });

  describe("inviting an unknown address", () => {
    const invitee = {
      email: "Invited.Person@Example.com",
      username: "invited-person",
      password: "invited-pass-1",
    };
    let link: { token: string; email: string };

    it("creates an invited user and answers the link to an administrator to hand over", async () => {
      const res = await admin.put(user(serverA, invitee.email), {
        scopes: ["server.console", "server.status"],
      });
      link = inviteOf(panel().url, res);
      expect(link.email).toBe("invited.person@example.com");
      expect(link.token.length).toBeGreaterThanOrEqual(32);
      const listed = (await ownerApi.get(user(serverA, invitee.email))).body[0];
      expect(listed).toMatchObject({ email: "invited.person@example.com", invited: true });
      expect(listed.username).toMatch(/^[A-Za-z0-9._~-]{5,}$/);
      expect([...listed.scopes].sort()).toEqual(["server.console", "server.status", "server.view"]);
      // Only the hash of the link's token is stored.
      const stored = await withPanelDb(panel(), (db) =>
        db.selectFrom("sessions").select(["token_hash", "expires_at"]).where("kind", "=", "invite").execute(),
      );
      expect(stored.some((row) => row.token_hash === link.token)).toBe(false);
      const week = 7 * 24 * 3600_000;
      expect(stored.every((row) => Math.abs(row.expires_at - Date.now() - week) < 60_000)).toBe(true);
    });

    it("the invited user cannot sign in before choosing a password, and the link is no session", async () => {
      const login = await new PanelClient(panel().url).login(invitee.email, "any-password-1");
      expectError(login, 400, "ErrInvalidCredentials");
      const asBearer = await new PanelClient(panel().url).get("/api/self", { bearer: link.token });
      expect(asBearer.status).toBe(401);
    });

    it("refuses a wrong token or e-mail, and bad usernames or passwords without spending the link", async () => {
      const nobody = await anonymous(panel().url);
      const accept = (body: Record<string, string>) =>
        nobody.post("/auth/invite", {
          ...link,
          username: invitee.username,
          password: invitee.password,
          ...body,
        });
      expectError(await accept({ token: `${link.token}x` }), 400, "ErrInviteLinkInvalid");
      expectError(await accept({ email: friend.email }), 400, "ErrInviteLinkInvalid");
      expectError(await accept({ token: "" }), 400, "ErrInviteLinkInvalid");
      expect((await accept({ token: `${link.token}x` })).body.error.metadata).toBeUndefined();
      expectError(await accept({ password: "short" }), 400, "ErrPasswordRequirements");
      expectError(await accept({ username: "abc" }), 400, "ErrFieldLength", { field: "username" });
      expectError(await accept({ username: "has space" }), 400, "ErrFieldHasURICharacters");
      expectError(await accept({ username: owner.username }), 409, "ErrUserExists", { field: "username" });
      expect(nobody.cookies.has("outpost_auth")).toBe(false);
    });

    it("accepting sets username and password, signs in, and shows exactly the server", async () => {
      const browser = await anonymous(panel().url);
      const res = await browser.post("/auth/invite", {
        token: link.token,
        email: invitee.email,
        username: invitee.username,
        password: invitee.password,
      });
      expect(res.status, res.text).toBe(200);
      expect([...res.body.scopes].sort()).toEqual(["login", "self.clients", "self.edit"]);
      expect(cookieValue(setCookie(res, "outpost_auth"))).toBeTruthy();
      expect(setCookie(res, "outpost_auth_expires")).toBeTruthy();
      expect((await browser.get("/api/self")).body).toMatchObject({
        username: invitee.username,
        email: "invited.person@example.com",
      });
      const servers = await browser.get("/api/servers");
      expect(servers.body.servers.map((s: { id: string }) => s.id)).toEqual([serverA]);
      expect((await browser.get(`/api/servers/${serverA}/console`)).status).toBe(200);
      expect((await browser.get(`/api/servers/${serverB}`)).status).toBe(403);
      // Later sign-ins with the chosen password work; the list no longer says invited.
      expect((await new PanelClient(panel().url).login(invitee.email, invitee.password)).status).toBe(200);
      expect((await ownerApi.get(user(serverA, invitee.email))).body[0]).not.toHaveProperty("invited");
    });

    it("a used link is refused, and granting the active user more answers no link", async () => {
      const again = await (await anonymous(panel().url)).post("/auth/invite", {
        ...link,
        username: "someone-else",
        password: "another-pass-1",
      });
      expectError(again, 400, "ErrInviteLinkInvalid");
      expect((await new PanelClient(panel().url).login(invitee.email, invitee.password)).status).toBe(200);
      const more = await admin.put(user(serverB, invitee.email), { scopes: ["server.status"] });
      expect(more.status, more.text).toBe(204);
    });

    it("an expired link is refused; granting again to a pending invitee gives a fresh link that works", async () => {
      const late = inviteOf(panel().url, await admin.put(user(serverB, "late@example.com"), { scopes: [] }));
      await withPanelDb(panel(), (db) =>
        db
          .updateTable("sessions")
          .set({ expires_at: Date.now() - 1000 })
          .where("kind", "=", "invite")
          .execute(),
      );
      const nobody = await anonymous(panel().url);
      const body = { username: "late-comer", password: "late-pass-12" };
      expectError(await nobody.post("/auth/invite", { ...late, ...body }), 400, "ErrInviteLinkInvalid");
      const fresh = inviteOf(panel().url, await admin.put(user(serverB, "late@example.com"), { scopes: [] }));
      expect(fresh.token).not.toBe(late.token);
      const accepted = await nobody.post("/auth/invite", { ...fresh, ...body });
      expect(accepted.status, accepted.text).toBe(200);
      expect((await nobody.get("/api/servers")).body.servers.map((s: { id: string }) => s.id)).toEqual([
        serverB,
      ]);
    });

    it("failed attempts are throttled like logins", async () => {
      const target = inviteOf(
        panel().url,
        await admin.put(user(serverB, "guessed@example.com"), { scopes: [] }),
      );
      const nobody = await anonymous(panel().url);
      const body = { email: target.email, username: "guessed-user", password: "guessed-pass-1" };
      for (let i = 0; i < 5; i++) {
        expectError(
          await nobody.post("/auth/invite", { ...body, token: `guess-${i}` }),
          400,
          "ErrInviteLinkInvalid",
        );
      }
      // Now even the right token waits.
      const blocked = await nobody.post("/auth/invite", { ...body, token: target.token });
      expectError(blocked, 429, "ErrTooManyAttempts");
      expect(blocked.body.error.metadata.retryAfter).toBeGreaterThan(0);
    });
  });
});
