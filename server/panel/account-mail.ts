import { escapeHtml, oneLine } from "./invite-mail.ts";
import type { Mailer, MailLog, MailMessage } from "./mailer.ts";
import type { Settings } from "./settings.ts";

/**
 * Changes to how an account signs in, told to its owner by e-mail (the reference's
 * otpEnabled, otpDisabled and recoveryCodesRegenerated templates): if it was not them, they
 * learn it at once.
 */
export type AccountEvent =
  | "otpEnabled"
  | "otpDisabled"
  | "recoveryCodesRegenerated"
  | "passwordChanged"
  | "emailChanged"
  | "oauthCreated"
  | "oauthDeleted"
  | "codeGuessesHeld";

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
  passwordChanged: {
    subject: "password changed",
    text: (u) => `The password of your account ${u} was changed, and its other sessions were signed out.`,
  },
  oauthCreated: {
    subject: "new OAuth client",
    text: (u) => `An OAuth client was created for your account ${u}; programs holding its secret act as you.`,
  },
  oauthDeleted: {
    subject: "OAuth client deleted",
    text: (u) => `An OAuth client of your account ${u} was deleted; its tokens no longer work.`,
  },
  codeGuessesHeld: {
    subject: "wrong two-factor codes",
    text: (u) =>
      `Several wrong two-factor codes were typed after the right password of your account ${u}, ` +
      "so signing in to it is held back for a while. Whoever typed them knows your password.",
  },
  emailChanged: {
    subject: "e-mail address changed",
    text: (u) =>
      `The e-mail address of your account ${u} was changed; this address no longer signs in to it.`,
  },
};

/** E-mails an account event to the owner, best-effort and without holding up the caller (reference §12.22). */
export function tellOwner(
  mailer: Mailer,
  settings: Settings,
  owner: { email: string; username: string },
  event: AccountEvent,
  log: MailLog,
): void {
  void (async () => {
    const company = String(await settings.get("panel.settings.companyName"));
    await mailer.send(accountEventMail(event, { to: owner.email, username: owner.username, company }), log);
  })().catch((err: unknown) => log.warn({ err: String(err) }, "account e-mail not sent"));
}

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
