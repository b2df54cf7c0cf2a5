import { describe, expect, it } from "vitest";
import { currentOtp } from "../../server/panel/otp.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { enableOtp, setGlobalScopes, withPanelDb } from "../support/panel-db.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";
import { SoftwareAuthenticator } from "../support/webauthn-authenticator.ts";

describe("passkeys (issue 39)", () => {
  const panel = usePanel();
  const origin = () => panel().url;

  /** Registers a new software passkey on the signed-in client's account. */
  async function register(client: PanelClient, name: string, key = SoftwareAuthenticator.create()) {
    const options = await client.post("/api/self/passkeys/options");
    expect(options.status, options.text).toBe(200);
    const added = await client.post("/api/self/passkeys", {
      name,
      response: key.register(options.body, origin()),
    });
    expect(added.status, added.text).toBe(200);
    return { key, id: added.body.id as number };
  }

  /** Signs in with a passkey alone, on a fresh client. */
  async function passkeyLogin(key: SoftwareAuthenticator, client = new PanelClient(panel().url)) {
    const options = await client.post("/auth/passkey/options");
    expect(options.status, options.text).toBe(200);
    return {
      client,
      res: await client.post("/auth/passkey", { response: key.signIn(options.body, origin()) }),
    };
  }

  it("registers several passkeys per account, names, renames and removes them", async () => {
    const user = newUser("pk-many");
    const client = await registeredClient(panel(), user);
    const first = await register(client, "Laptop");
    const phone = await register(client, "Phone");
    const list = await client.get("/api/self/passkeys");
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(["Laptop", "Phone"]);
    expect((await client.put(`/api/self/passkeys/${first.id}`, { name: "Work laptop" })).status).toBe(204);
    expect((await client.delete(`/api/self/passkeys/${first.id}`)).status).toBe(204);
    expect((await client.get("/api/self/passkeys")).body.map((p: { name: string }) => p.name)).toEqual([
      "Phone",
    ]);
    // Another account's passkey is not there to rename or remove.
    const other = await registeredClient(panel(), newUser("pk-other"));
    const theirs = (await client.get("/api/self/passkeys")).body[0].id;
    expectError(await other.delete(`/api/self/passkeys/${theirs}`), 404, "ErrPasskeyNotFound");
    expectError(await other.put(`/api/self/passkeys/${theirs}`, { name: "mine" }), 404, "ErrPasskeyNotFound");
    // Registering the same authenticator twice is refused.
    const again = await client.post("/api/self/passkeys/options");
    expect(again.body.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([phone.key.id]);
    expectError(
      await client.post("/api/self/passkeys", {
        name: "again",
        response: phone.key.register(again.body, origin()),
      }),
      409,
      "ErrPasskeyExists",
    );
  });

  it("refuses a registration whose challenge is not the account's, or answered from another origin", async () => {
    const client = await registeredClient(panel(), newUser("pk-refused"));
    const options = await client.post("/api/self/passkeys/options");
    const key = SoftwareAuthenticator.create();
    expectError(
      await client.post("/api/self/passkeys", {
        name: "Elsewhere",
        response: key.register(options.body, "http://evil.example"),
      }),
      400,
      "ErrPasskeyRefused",
    );
    // The challenge was taken by that try: the right origin now finds none waiting.
    expectError(
      await client.post("/api/self/passkeys", {
        name: "Late",
        response: key.register(options.body, origin()),
      }),
      400,
      "ErrPasskeyRefused",
    );
    // Another account's challenge does not register here.
    const other = await registeredClient(panel(), newUser("pk-thief"));
    const theirs = await other.post("/api/self/passkeys/options");
    expectError(
      await client.post("/api/self/passkeys", {
        name: "Stolen",
        response: key.register(theirs.body, origin()),
      }),
      400,
      "ErrPasskeyRefused",
    );
  });

  it("signs in with a passkey alone (discoverable), once per challenge", async () => {
    const user = newUser("pk-alone");
    const { key } = await register(await registeredClient(panel(), user), "Key");
    const { client, res } = await passkeyLogin(key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.scopes).toContain("login");
    expect((await client.get("/api/self")).body.email).toBe(user.email);
    // The same signed challenge a second time: refused.
    const options = await client.post("/auth/passkey/options");
    const signed = key.signIn(options.body, origin());
    expect((await new PanelClient(panel().url).post("/auth/passkey", { response: signed })).status).toBe(200);
    expectError(
      await new PanelClient(panel().url).post("/auth/passkey", { response: signed }),
      400,
      "ErrInvalidCredentials",
    );
  });

  it("refuses a cloned authenticator: a counter that did not grow", async () => {
    const { key } = await register(await registeredClient(panel(), newUser("pk-clone")), "Key");
    const clone = key.clone();
    expect((await passkeyLogin(key)).res.status).toBe(200);
    expect((await passkeyLogin(key)).res.status).toBe(200);
    // The clone signs with the count the original had two sign-ins ago.
    const cloned = await passkeyLogin(clone);
    expectError(cloned.res, 400, "ErrInvalidCredentials");
    expectError(await cloned.client.get("/api/self"), 401, "ErrTokenInvalid");
    // The original goes on.
    expect((await passkeyLogin(key)).res.status).toBe(200);
  });

  it("refuses an unknown passkey, a bad signature, another origin and a challenge the panel never gave", async () => {
    const { key } = await register(await registeredClient(panel(), newUser("pk-bad")), "Key");
    expectError((await passkeyLogin(SoftwareAuthenticator.create())).res, 400, "ErrInvalidCredentials");
    const client = new PanelClient(panel().url);
    const options = await client.post("/auth/passkey/options");
    const forged = key.signIn(options.body, origin());
    forged.response.signature = Buffer.alloc(70, 1).toString("base64url");
    expectError(await client.post("/auth/passkey", { response: forged }), 400, "ErrInvalidCredentials");
    const again = await client.post("/auth/passkey/options");
    expectError(
      await client.post("/auth/passkey", { response: key.signIn(again.body, "http://evil.example") }),
      400,
      "ErrInvalidCredentials",
    );
    const made = await client.post("/auth/passkey/options");
    expectError(
      await client.post("/auth/passkey", {
        response: key.signIn(made.body, origin(), { challenge: Buffer.alloc(32, 9).toString("base64url") }),
      }),
      400,
      "ErrInvalidCredentials",
    );
  });

  it("is the second step after the password: the account's passkey completes it, another's does not", async () => {
    const user = newUser("pk-second");
    const own = await registeredClient(panel(), user);
    const { key } = await register(own, "Key");
    const other = await register(await registeredClient(panel(), newUser("pk-second-other")), "Theirs");
    const client = new PanelClient(panel().url);
    const step = await client.login(user.email, user.password);
    expect(step.body).toEqual({ otpNeeded: true, secondFactors: ["passkey"] });
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
    const options = await client.post("/auth/passkey/options");
    // Only this account's passkeys are asked for.
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    expectError(
      await client.post("/auth/passkey", { response: other.key.signIn(options.body, origin()) }),
      400,
      "ErrInvalidCredentials",
    );
    const retry = await client.post("/auth/passkey/options");
    const done = await client.post("/auth/passkey", { response: key.signIn(retry.body, origin()) });
    expect(done.status, done.text).toBe(200);
    expect((await client.get("/api/self")).body.email).toBe(user.email);
    expect(client.cookies.has("outpost_otp_pending")).toBe(false);
  });

  it("stands in for the app's code of an account with both, and the code still works", async () => {
    const user = newUser("pk-both");
    const own = await registeredClient(panel(), user);
    const { key } = await register(own, "Key");
    const secret = await enableOtp(panel(), user.email);
    const byKey = new PanelClient(panel().url);
    expect((await byKey.login(user.email, user.password)).body).toEqual({
      otpNeeded: true,
      secondFactors: ["otp", "passkey"],
    });
    const options = await byKey.post("/auth/passkey/options");
    expect((await byKey.post("/auth/passkey", { response: key.signIn(options.body, origin()) })).status).toBe(
      200,
    );
    const byCode = new PanelClient(panel().url);
    await byCode.login(user.email, user.password);
    expect((await byCode.post("/auth/otp", { token: currentOtp(secret) })).status).toBe(200);
  });

  it("keeps nothing for an anonymous sign-in challenge until a passkey used it (no one fills the database)", async () => {
    const { key } = await register(await registeredClient(panel(), newUser("pk-flood")), "Key");
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
    // Anyone may ask, as often as they like: each ask used to leave a row for five minutes.
    const anonymous = new PanelClient(panel().url);
    let last = { challenge: "" };
    for (let i = 0; i < 40; i++) {
      const options = await anonymous.post("/auth/passkey/options");
      expect(options.status, options.text).toBe(200);
      last = options.body;
    }
    expect(await stored()).toBe(before);
    // The last one still signs in, once.
    const signed = key.signIn(last, origin());
    expect((await new PanelClient(panel().url).post("/auth/passkey", { response: signed })).status).toBe(200);
    expectError(
      await new PanelClient(panel().url).post("/auth/passkey", { response: signed }),
      400,
      "ErrInvalidCredentials",
    );
  });

  it("counts failed passkey sign-ins in the password sign-in's throttle", async () => {
    const user = newUser("pk-throttle");
    const { key } = await register(await registeredClient(panel(), user), "Key");
    for (let i = 0; i < 5; i++) {
      const client = new PanelClient(panel().url);
      const options = await client.post("/auth/passkey/options");
      const bad = key.clone().signIn(options.body, "http://evil.example");
      expectError(await client.post("/auth/passkey", { response: bad }), 400, "ErrInvalidCredentials");
    }
    expect((await passkeyLogin(key)).res.status).toBe(429);
    // The password shares the count.
    expect((await new PanelClient(panel().url).login(user.email, user.password)).status).toBe(429);
  });

  it("needs self.edit to manage passkeys, and records it all in the activity log", async () => {
    const barred = newUser("pk-barred");
    const client = await registeredClient(panel(), barred);
    await setGlobalScopes(panel(), barred.email, ["login"]);
    for (const res of [
      await client.get("/api/self/passkeys"),
      await client.post("/api/self/passkeys/options"),
      await client.post("/api/self/passkeys", { name: "x", response: {} }),
      await client.put("/api/self/passkeys/1", { name: "x" }),
      await client.delete("/api/self/passkeys/1"),
    ])
      expectError(res, 403, "ErrMissingScope", { scope: "self.edit" });
    const admin = await adminClient(panel());
    const created = await admin.get("/api/activity?action=self.passkey.create");
    expect(JSON.stringify(created.body)).toContain("Laptop");
    const signIns = await admin.get("/api/activity?action=auth.login");
    expect(JSON.stringify(signIns.body)).toContain('"method":"passkey"');
    const failed = await admin.get("/api/activity?action=auth.login.failed");
    expect(JSON.stringify(failed.body)).toContain('"method":"passkey"');
  });
});
