import type { MailMessage } from "./mailer.ts";

export interface Invitation {
  to: string;
  /** The username of who granted the access. */
  inviter: string;
  serverName: string;
  /** The panel's name (panel.settings.companyName). */
  company: string;
  url: string;
  /** The link's token: the mail carries it, no log may. */
  token: string;
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** Names come from users: one line each, so none can shape the subject or the text around it. */
export const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The e-mail that invites someone to a server: who, which server, the link, and that it expires in 7 days. */
export function invitationMail(invite: Invitation): MailMessage {
  const inviter = oneLine(invite.inviter);
  const server = oneLine(invite.serverName);
  const company = oneLine(invite.company);
  const subject = `${inviter} invited you to the server ${server} on ${company}`;
  const text = [
    "Hello,",
    "",
    `${inviter} gave you access to the server "${server}" on ${company}.`,
    "To accept, open this link and choose a username and password:",
    "",
    invite.url,
    "",
    "The link works once and expires in 7 days. If you did not expect this invitation, ignore this e-mail.",
    "",
  ].join("\n");
  const url = escapeHtml(invite.url);
  const html = [
    "<!doctype html>",
    `<html><body style="font-family: sans-serif; line-height: 1.5">`,
    "<p>Hello,</p>",
    `<p>${escapeHtml(inviter)} gave you access to the server <strong>${escapeHtml(server)}</strong> on ${escapeHtml(company)}.</p>`,
    "<p>To accept, open this link and choose a username and password:</p>",
    `<p><a href="${url}">${url}</a></p>`,
    "<p>The link works once and expires in 7 days. If you did not expect this invitation, ignore this e-mail.</p>",
    "</body></html>",
    "",
  ].join("\n");
  return { to: invite.to, subject, text, html, secrets: [invite.token] };
}
