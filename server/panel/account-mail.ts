import { escapeHtml, oneLine } from "./invite-mail.ts";
import type { MailMessage } from "./mailer.ts";

/**
 * Changes to how an account signs in, told to its owner by e-mail (the reference's
 * otpEnabled, otpDisabled and recoveryCodesRegenerated templates): if it was not them, they
 * learn it at once.
 */
export type AccountEvent = "otpEnabled" | "otpDisabled" | "recoveryCodesRegenerated";

const sentences: Record<AccountEvent, { subject: string; text: (username: string) => string }> = {
  otpEnabled: {
    subject: "two-factor sign-in turned on",
    text: (u) => `Two-factor sign-in was turned on for your account ${u}.`,
  },
  otpDisabled: {
    subject: "two-factor sign-in turned off",
    text: (u) =>
      `Two-factor sign-in was turned off for your account ${u}. Signing in now needs only the password.`,
  },
  recoveryCodesRegenerated: {
    subject: "new recovery codes",
    text: (u) => `New recovery codes were made for your account ${u}; the earlier ones no longer work.`,
  },
};

export function accountEventMail(
  event: AccountEvent,
  account: { to: string; username: string; company: string },
): MailMessage {
  const company = oneLine(account.company);
  const what = sentences[event];
  const lines = [
    "Hello,",
    "",
    what.text(oneLine(account.username)),
    "If this was not you, sign in and change your password now, or ask an administrator for help.",
    "",
  ];
  const html = [
    "<!doctype html>",
    `<html><body style="font-family: sans-serif; line-height: 1.5">`,
    ...lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`),
    "</body></html>",
    "",
  ].join("\n");
  return { to: account.to, subject: `${company}: ${what.subject}`, text: lines.join("\n"), html };
}

/** The message of POST /api/settings/test/email. */
export function testMail(to: string, company: string): MailMessage {
  const name = oneLine(company);
  const text = `This is a test e-mail from ${name}. E-mail is set up correctly.\n`;
  const html = `<!doctype html>\n<html><body><p>${escapeHtml(text.trim())}</p></body></html>\n`;
  return { to, subject: `${name}: test e-mail`, text, html };
}
