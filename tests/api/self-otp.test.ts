import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Accounts } from "../../server/panel/accounts.ts";
import { LoginThrottle } from "../../server/panel/login-throttle.ts";
import { Mailer } from "../../server/panel/mailer.ts";
import { currentOtp } from "../../server/panel/otp.ts";
import { Settings } from "../../server/panel/settings.ts";
import { SharedState } from "../../server/panel/shared-state.ts";
import { TwoFactor } from "../../server/panel/two-factor.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { panelSecretBox, setGlobalScopes, withPanelDb } from "../support/panel-db.ts";
import { mailToInbox, SmtpInbox } from "../support/smtp-inbox.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

const nextStep = (secret: string) => currentOtp(secret, Date.now() + 30_000);

describe("two-factor enrolment and use (/api/self/otp)", () => {
  // Racing sign-ins come from their own (forwarded) addresses, so their refusals do not use up
  // the test machine's address in the sign-in throttle (public test addresses: private ones count as proxies).
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true" } });
  let lastAddress = 0;

  /** A registered user who has enrolled through the API (with the current code); answers the secret and codes. */
  async function enrolled(tag: string) {
    const user = newUser(tag);
    const api = await registeredClient(panel(), user);
    const start = await api.post("/api/self/otp");
    expect(start.status).toBe(200);
    const secret: string = start.body.secret;
    const confirmCode = currentOtp(secret);
    const confirm = await api.put("/api/self/otp", { token: confirmCode });
    expect(confirm.status, confirm.text).toBe(200);
    return { user, api, secret, confirmCode, codes: confirm.body.recoveryCodes as string[] };
  }

  /** Password step of a new sign-in; the answer must ask for the code. */
  async function pending(user: { email: string; password: string }) {
    const client = new PanelClient(panel().url);
    expect((await client.login(user.email, user.password)).body).toEqual({ otpNeeded: true });
    return client;
  }

  it("starts with a secret as text, an otpauth URI and a QR code drawn by the panel", async () => {
    const user = newUser("start");
    const api = await registeredClient(panel(), user);
    expect((await api.get("/api/self/otp")).body).toEqual({ otpEnabled: false, recoveryCodesLeft: 0 });
    const res = await api.post("/api/self/otp");
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(res.body.uri).toBe(
      `otpauth://totp/Outpost:${encodeURIComponent(user.email)}?issuer=Outpost&secret=${res.body.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(res.body.img).toMatch(/^data:image\/svg\+xml;base64,/);
    // Not on until a code confirms it.
    expect((await api.get("/api/self/otp")).body.otpEnabled).toBe(false);
    expect((await new PanelClient(panel().url).login(user.email, user.password)).body.scopes).toBeDefined();
  });

  it("refuses a wrong confirmation code and a confirmation without enrolment", async () => {
    const user = newUser("wrongconf");
    const api = await registeredClient(panel(), user);
    expectError(await api.put("/api/self/otp", { token: "123456" }), 400, "ErrOtpNotPending");
    const { secret } = (await api.post("/api/self/otp")).body;
    const right = currentOtp(secret);
    expectError(
      await api.put("/api/self/otp", { token: right === "000000" ? "111111" : "000000" }),
      400,
      "ErrInvalidCredentials",
    );
    expect((await api.get("/api/self/otp")).body.otpEnabled).toBe(false);
  });

  it("enrol → sign in with a code → the same code is refused → a recovery code works once", async () => {
    const { user, api, secret, confirmCode, codes } = await enrolled("flow");
    expect(codes).toHaveLength(10);
    expect((await api.get("/api/self/otp")).body).toEqual({ otpEnabled: true, recoveryCodesLeft: 10 });
    expect((await api.get("/api/self")).body.otpActive).toBe(true);

    // The code that confirmed enrolment is used up.
    const first = await pending(user);
    expectError(await first.post("/auth/otp", { token: confirmCode }), 400, "ErrInvalidCredentials");
    const code = nextStep(secret);
    expect((await first.post("/auth/otp", { token: code })).status).toBe(200);
    expect((await first.get("/api/self")).status).toBe(200);

    const replay = await pending(user);
    expectError(await replay.post("/auth/otp", { token: code }), 400, "ErrInvalidCredentials");
    expect(replay.cookies.has("outpost_auth")).toBe(false);

    const recovery = await pending(user);
    expect((await recovery.post("/auth/otp", { token: codes[0].toUpperCase() })).status).toBe(200);
    expect((await recovery.get("/api/self")).body.email).toBe(user.email);
    expect((await api.get("/api/self/otp")).body.recoveryCodesLeft).toBe(9);

    const again = await pending(user);
    expectError(await again.post("/auth/otp", { token: codes[0] }), 400, "ErrInvalidCredentials");
  });

  /** Sign-ins waiting for their code, sent the same code at once; answers their statuses. */
  async function race(user: { email: string; password: string }, code: string): Promise<number[]> {
    const racers = await Promise.all(Array.from({ length: 5 }, () => pending(user)));
    const answers = await Promise.all(
      racers.map((c) =>
        c.post("/auth/otp", { token: code }, { headers: { "x-forwarded-for": `198.18.9.${++lastAddress}` } }),
      ),
    );
    return answers.map((r) => r.status).sort();
  }

  it("lets exactly one of several sign-ins racing with the same code through", async () => {
    const { user, secret } = await enrolled("race");
    expect(await race(user, nextStep(secret))).toEqual([200, 400, 400, 400, 400]);
  });

  it("lets exactly one of several sign-ins racing with the same recovery code through", async () => {
    const { user, codes } = await enrolled("racerec");
    expect(await race(user, codes[3])).toEqual([200, 400, 400, 400, 400]);
  });

  it("six code checks interleaved in one panel process: the database lets exactly one use the code", async () => {
    // The HTTP race above rarely interleaves on a quiet machine; here every check has read the
    // account before any of them writes, which a read-then-write check would let all through.
    const { user, secret, codes } = await enrolled("interleave");
    const results = await withPanelDb(panel(), async (db) => {
      const box = panelSecretBox(panel());
      const accounts = new Accounts(db, box);
      const settings = new Settings(db, { defaultPublicUrl: panel().url }, box);
      const twoFactor = new TwoFactor(
        db,
        accounts,
        settings,
        new LoginThrottle(new SharedState(db), "sign-in"),
        new Mailer(settings),
      );
      const id = (await accounts.byEmail(user.email))!.id;
      // Open the pool's connections first (PostgreSQL), so the checks run side by side.
      await Promise.all(Array.from({ length: 6 }, () => accounts.otpState(id)));
      const code = nextStep(secret);
      const totp = await Promise.all(Array.from({ length: 6 }, () => twoFactor.spendCode(id, code)));
      const recovery = await Promise.all(Array.from({ length: 6 }, () => twoFactor.spendCode(id, codes[5])));
      return { totp, recovery };
    });
    expect(results.totp.filter(Boolean)).toHaveLength(1);
    expect(results.recovery.filter(Boolean)).toHaveLength(1);
  });

  it("stores recovery codes hashed, never as given", async () => {
    const { user, codes } = await enrolled("hashed");
    const stored = await withPanelDb(panel(), (db) =>
      db
        .selectFrom("otp_recovery_codes")
        .innerJoin("users", "users.id", "otp_recovery_codes.user_id")
        .select("code_hash")
        .where("users.email", "=", user.email)
        .execute(),
    );
    const sha = (c: string) => createHash("sha256").update(c).digest("hex");
    expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map(sha).sort());
  });

  it("regenerates recovery codes with a code; the old ones stop working", async () => {
    const { user, api, secret, codes } = await enrolled("regen");
    expectError(await api.post("/api/self/otp/recovery", { token: "000000" }), 400, "ErrInvalidCredentials");
    const res = await api.post("/api/self/otp/recovery", { token: nextStep(secret) });
    expect(res.status).toBe(200);
    const fresh: string[] = res.body.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    // A recovery code is accepted too, and is used up by it.
    const again = await api.post("/api/self/otp/recovery", { token: fresh[0] });
    expect(again.status).toBe(200);
    const old = await pending(user);
    expectError(await old.post("/auth/otp", { token: codes[1] }), 400, "ErrInvalidCredentials");
    expectError(await old.post("/auth/otp", { token: fresh[1] }), 400, "ErrInvalidCredentials");
    expect((await old.post("/auth/otp", { token: again.body.recoveryCodes[1] })).status).toBe(200);
  });

  it("a new enrolment leaves the active secret in force until it is confirmed", async () => {
    const { user, api, secret } = await enrolled("reenrol");
    const restart = await api.post("/api/self/otp");
    expect(restart.body.secret).not.toBe(secret);
    expect((await api.get("/api/self/otp")).body.otpEnabled).toBe(true);
    const login = await pending(user);
    expect((await login.post("/auth/otp", { token: nextStep(secret) })).status).toBe(200);
  });

  it("disables with a code or a recovery code; then sign-in asks no code and the recovery codes are gone", async () => {
    const { user, api, codes } = await enrolled("disable");
    expectError(await api.delete("/api/self/otp/000000"), 400, "ErrInvalidCredentials");
    expect((await api.delete(`/api/self/otp/${codes[2]}`)).status).toBe(204);
    expect((await api.get("/api/self/otp")).body).toEqual({ otpEnabled: false, recoveryCodesLeft: 0 });
    const login = await new PanelClient(panel().url).login(user.email, user.password);
    expect(login.body.scopes).toContain("login");
    expectError(await api.delete(`/api/self/otp/${codes[3]}`), 400, "ErrOtpNotEnabled");
    const left = await withPanelDb(panel(), (db) =>
      db
        .selectFrom("otp_recovery_codes")
        .innerJoin("users", "users.id", "otp_recovery_codes.user_id")
        .select("code_hash")
        .where("users.email", "=", user.email)
        .execute(),
    );
    expect(left).toEqual([]);
  });

  it("throttles guessing: after five wrong codes even the right one waits", async () => {
    const { api, secret } = await enrolled("guess");
    for (let i = 0; i < 5; i++) {
      expectError(await api.delete(`/api/self/otp/00000${i}`), 400, "ErrInvalidCredentials");
    }
    expectError(await api.delete(`/api/self/otp/${nextStep(secret)}`), 429, "ErrTooManyAttempts");
    expect((await api.get("/api/self/otp")).body.otpEnabled).toBe(true);
  });

  it("refuses anonymous callers (401) and users without self.edit (403)", async () => {
    const anonymous = new PanelClient(panel().url);
    await anonymous.prime();
    const user = newUser("noedit");
    const limited = await registeredClient(panel(), user);
    await setGlobalScopes(panel(), user.email, ["login"]);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/self/otp"],
      ["POST", "/api/self/otp"],
      ["PUT", "/api/self/otp", { token: "123456" }],
      ["DELETE", "/api/self/otp/123456"],
      ["POST", "/api/self/otp/recovery", { token: "123456" }],
    ];
    for (const [method, path, json] of calls) {
      const opts = json === undefined ? {} : { json };
      expectError(await anonymous.call(method, path, opts), 401, "ErrTokenInvalid");
      expectError(await limited.call(method, path, opts), 403, "ErrMissingScope");
    }
  });
});

describe("two-factor changes are e-mailed to the account's owner", () => {
  const panel = usePanel();
  const inbox = new SmtpInbox();
  afterAll(async () => {
    await inbox.stop();
  });

  it("on turning on, new recovery codes and turning off", async () => {
    const port = await inbox.start();
    const admin = await adminClient(panel());
    await mailToInbox(admin, port);
    const user = newUser("mailed");
    const api = await registeredClient(panel(), user);
    const { secret } = (await api.post("/api/self/otp")).body;
    expect((await api.put("/api/self/otp", { token: currentOtp(secret) })).status).toBe(200);
    const on = await inbox.nth(1);
    expect(on.to).toEqual([user.email]);
    expect(on.headers.get("subject")).toBe("Outpost: two-factor sign-in turned on");
    expect(on.parts.get("text/plain")).toContain(`for your account ${user.username}`);
    const { recoveryCodes } = (
      await api.post("/api/self/otp/recovery", { token: currentOtp(secret, Date.now() + 30_000) })
    ).body;
    expect((await inbox.nth(2)).headers.get("subject")).toBe("Outpost: new recovery codes");
    expect((await api.delete(`/api/self/otp/${recoveryCodes[0]}`)).status).toBe(204);
    expect((await inbox.nth(3)).headers.get("subject")).toBe("Outpost: two-factor sign-in turned off");
    // No code or secret ever goes into these messages.
    for (const mail of inbox.mails) {
      expect(mail.raw).not.toContain(secret);
      for (const code of recoveryCodes) expect(mail.raw).not.toContain(code);
    }
  });
});
