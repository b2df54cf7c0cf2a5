import { describe, expect, it } from "vitest";
import { invitationMail } from "../../../server/panel/invite-mail.ts";
import { parseSmtpHost } from "../../../server/panel/mailer.ts";

describe("panel.email.host", () => {
  it("reads host and port, 587 when no port is given", () => {
    expect(parseSmtpHost("mail.example.com")).toEqual({ host: "mail.example.com", port: 587 });
    expect(parseSmtpHost(" mail.example.com:465 ")).toEqual({ host: "mail.example.com", port: 465 });
    expect(parseSmtpHost("127.0.0.1:2525")).toEqual({ host: "127.0.0.1", port: 2525 });
    expect(parseSmtpHost("[::1]:25")).toEqual({ host: "::1", port: 25 });
    expect(parseSmtpHost("[::1]")).toEqual({ host: "::1", port: 587 });
  });

  it("refuses what is no host:port", () => {
    for (const bad of ["", "host:", "host:0", "host:70000", "host:25x", "a b:25", "::1", "smtp://host:25"]) {
      expect(parseSmtpHost(bad), bad).toBeUndefined();
    }
  });
});

describe("the invitation e-mail", () => {
  const url = "https://panel.example.com/auth/invite?token=abc&email=x%40example.com";

  it("names who invited, the server and the link, and says when it expires", () => {
    const mail = invitationMail({
      to: "x@example.com",
      inviter: "alice",
      serverName: "World",
      company: "Outpost",
      url,
      token: "abc",
    });
    expect(mail.subject).toBe("alice invited you to the server World on Outpost");
    expect(mail.text).toContain(url);
    expect(mail.text).toContain("expires in 7 days");
    // The token is marked, so no log ever shows it.
    expect(mail.secrets).toEqual(["abc"]);
    expect(mail.html).toContain(
      'href="https://panel.example.com/auth/invite?token=abc&amp;email=x%40example.com"',
    );
  });

  it("keeps names on one line and escapes them in the HTML", () => {
    const mail = invitationMail({
      to: "x@example.com",
      inviter: "eve\r\nBcc: victim@example.com",
      serverName: '<script>alert("x")</script>',
      company: "Outpost",
      url,
      token: "abc",
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain("eve Bcc: victim@example.com");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });
});
