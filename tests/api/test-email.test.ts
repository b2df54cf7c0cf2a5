import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { SmtpInbox } from "../support/smtp-inbox.ts";
import { admin, adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

// POST /api/settings/test/email: a real message to a real SMTP server the test runs on loopback.

describe("POST /api/settings/test/email", () => {
  const panel = usePanel();
  const inbox = new SmtpInbox({ username: "mailer", password: "smtp-pass-T3st" });
  let smtpPort: number;
  let api: PanelClient;

  const smtp = (overrides: Record<string, string> = {}) =>
    api.post("/api/settings", {
      "panel.email.provider": "smtp",
      "panel.email.host": `127.0.0.1:${smtpPort}`,
      "panel.email.from": "panel@example.com",
      "panel.email.username": "mailer",
      "panel.email.password": "smtp-pass-T3st",
      ...overrides,
    });

  beforeAll(async () => {
    smtpPort = await inbox.start();
    api = await adminClient(panel());
  });
  afterAll(async () => {
    await inbox.stop();
  });

  it("says e-mail is not set up while no provider is chosen", async () => {
    const res = await api.post("/api/settings/test/email");
    expectError(res, 400, "ErrEmailNotConfigured", { reason: "no e-mail provider is chosen" });
  });

  it("sends a test message to the calling administrator through SMTP", async () => {
    expect((await smtp()).status).toBe(204);
    await api.post("/api/settings", { "panel.settings.companyName": "Mail Test Panel" });
    const res = await api.post("/api/settings/test/email");
    expect(res.status, res.text).toBe(204);
    const mail = await inbox.nth(1);
    expect(mail.to).toEqual([admin.email]);
    expect(mail.from).toBe("panel@example.com");
    expect(mail.user).toBe("mailer");
    expect(mail.headers.get("subject")).toBe("Mail Test Panel: test e-mail");
    expect(mail.parts.get("text/plain")).toContain("This is a test e-mail from Mail Test Panel.");
  });

  it("answers the SMTP server's reason when it refuses", async () => {
    inbox.refuseRecipients = true;
    try {
      const res = await api.post("/api/settings/test/email");
      expectError(res, 500, "ErrEmailFailed", { reason: "550 No such mailbox here" });
    } finally {
      inbox.refuseRecipients = false;
    }
    expect((await smtp({ "panel.email.password": "wrong-password" })).status).toBe(204);
    const denied = await api.post("/api/settings/test/email");
    expectError(denied, 500, "ErrEmailFailed");
    expect(denied.body.error.metadata.reason).toMatch(/^535 /);
  });

  it("says when nothing listens at the configured host", async () => {
    const closed = await freePort();
    expect((await smtp({ "panel.email.host": `127.0.0.1:${closed}` })).status).toBe(204);
    const res = await api.post("/api/settings/test/email");
    expectError(res, 500, "ErrEmailFailed", { reason: `127.0.0.1:${closed} refused the connection` });
  });

  it("refuses anonymous callers (401) and users without settings.edit (403)", async () => {
    const plain = await registeredClient(panel(), newUser("notadmin"));
    expectError(await plain.post("/api/settings/test/email"), 403, "ErrMissingScope");
    const anonymous = new PanelClient(panel().url);
    await anonymous.prime();
    expectError(await anonymous.post("/api/settings/test/email"), 401, "ErrTokenInvalid");
  });
});
