import { afterAll, describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { mailToInbox, SmtpInbox } from "../support/smtp-inbox.ts";
import { admin, adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("GET and PUT /api/self", () => {
  const panel = usePanel();
  const signIn = async (email: string, password: string) => {
    const client = new PanelClient(panel().url);
    const res = await client.login(email, password);
    return { client, status: res.status };
  };

  it("shows the signed-in user without secrets", async () => {
    const user = newUser("show");
    const client = await registeredClient(panel(), user);
    const res = await client.get("/api/self");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["email", "id", "otpActive", "username"]);
    expect(res.body).toMatchObject({ username: user.username, email: user.email, otpActive: false });
  });

  it("changes the password, ends the user's other sessions and keeps this one", async () => {
    const user = newUser("pw");
    const current = await registeredClient(panel(), user);
    const { client: other } = await signIn(user.email, user.password);
    const res = await current.put("/api/self", { password: user.password, newPassword: "brand-new-pass" });
    expect(res.status).toBe(204);
    expect((await current.get("/api/self")).status).toBe(200);
    expectError(await other.get("/api/self"), 401, "ErrTokenInvalid");
    expect((await signIn(user.email, user.password)).status).toBe(400);
    expect((await signIn(user.email, "brand-new-pass")).status).toBe(200);
  });

  it("refuses a wrong current password with 400 ErrInvalidCredentials and changes nothing", async () => {
    const user = newUser("wrong");
    const client = await registeredClient(panel(), user);
    const res = await client.put("/api/self", { password: "not-my-password", newPassword: "other-pass-1" });
    expectError(res, 400, "ErrInvalidCredentials");
    const rename = await client.put("/api/self", { password: "not-my-password", username: "renamed-x" });
    expectError(rename, 400, "ErrInvalidCredentials");
    expect((await client.get("/api/self")).body.username).toBe(user.username);
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });

  it("requires the current password", async () => {
    const user = newUser("req");
    const client = await registeredClient(panel(), user);
    expectError(await client.put("/api/self", { username: "renamed-y" }), 400, "ErrFieldRequired", {
      field: "password",
    });
  });

  it("refuses a too short new password with ErrPasswordRequirements", async () => {
    const user = newUser("short");
    const client = await registeredClient(panel(), user);
    const res = await client.put("/api/self", { password: user.password, newPassword: "short" });
    expectError(res, 400, "ErrPasswordRequirements");
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });

  it("changes username and e-mail (stored lower-cased) with the current password", async () => {
    const user = newUser("ren");
    const client = await registeredClient(panel(), user);
    const fresh = newUser("renamed");
    const res = await client.put("/api/self", {
      username: fresh.username,
      email: fresh.email.toUpperCase(),
      password: user.password,
    });
    expect(res.status).toBe(204);
    expect((await client.get("/api/self")).body).toMatchObject({
      username: fresh.username,
      email: fresh.email,
    });
    expect((await signIn(fresh.email, user.password)).status).toBe(200);
    expect((await signIn(user.email, user.password)).status).toBe(400);
  });

  it("refuses a username or e-mail that another user holds with 409", async () => {
    const user = newUser("taken");
    const client = await registeredClient(panel(), user);
    const byName = await client.put("/api/self", { username: admin.username, password: user.password });
    expectError(byName, 409, "ErrUserExists", { field: "username" });
    const byMail = await client.put("/api/self", { email: admin.email, password: user.password });
    expectError(byMail, 409, "ErrUserExists", { field: "email" });
  });

  it("validates every field before changing anything", async () => {
    const user = newUser("atomic");
    const client = await registeredClient(panel(), user);
    const { client: other } = await signIn(user.email, user.password);
    const res = await client.put("/api/self", {
      password: user.password,
      newPassword: "a-valid-new-password",
      username: "abc",
    });
    expectError(res, 400, "ErrFieldLength", { field: "username" });
    expectError(
      await client.put("/api/self", {
        password: user.password,
        newPassword: "another-valid-one",
        email: "x@y",
      }),
      400,
      "ErrFieldNotEmail",
    );
    // The password did not change and no session was ended.
    expect((await other.get("/api/self")).status).toBe(200);
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });
});

describe("PUT /api/self tells the owner and holds back guessing", () => {
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true" } });
  const inbox = new SmtpInbox();
  afterAll(async () => {
    await inbox.stop();
  });

  it("e-mails a password change to the account and an e-mail change to the address it replaces", async () => {
    const port = await inbox.start();
    const admin = await adminClient(panel());
    await mailToInbox(admin, port);
    const user = newUser("told");
    const api = await registeredClient(panel(), user);
    expect(
      (await api.put("/api/self", { password: user.password, newPassword: "told-new-pass-1" })).status,
    ).toBe(204);
    const changed = await inbox.nth(1);
    expect(changed.to).toEqual([user.email]);
    expect(changed.headers.get("subject")).toBe("Outpost: password changed");
    expect(changed.raw).not.toContain("told-new-pass-1");
    const moved = newUser("toldnew");
    expect((await api.put("/api/self", { email: moved.email, password: "told-new-pass-1" })).status).toBe(
      204,
    );
    const told = await inbox.nth(2);
    expect(told.to).toEqual([user.email]);
    expect(told.headers.get("subject")).toBe("Outpost: e-mail address changed");
  });

  it("after five wrong current passwords from one address, that address waits", async () => {
    const user = newUser("guessed");
    const api = await registeredClient(panel(), user);
    const from = { headers: { "x-forwarded-for": "10.7.0.1" } };
    for (let i = 0; i < 5; i++) {
      expectError(
        await api.put("/api/self", { password: `wrong-${i}-pass`, username: "guessed-x" }, from),
        400,
        "ErrInvalidCredentials",
      );
    }
    expectError(
      await api.put("/api/self", { password: user.password, username: "guessed-x" }, from),
      429,
      "ErrTooManyAttempts",
    );
    expect((await api.get("/api/self")).body.username).toBe(user.username);
  });
});
