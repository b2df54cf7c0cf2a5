import { createHmac } from "node:crypto";
import webpush from "web-push";
import type { NotificationEvent } from "../../contract/api/notifications.ts";
import { type AddressCheck, checkedPost } from "../../net/public-address.ts";
import { escapeHtml, oneLine } from "../invite-mail.ts";
import type { Mailer, MailLog, MailMessage } from "../mailer.ts";
import type { VapidPair } from "./vapid.ts";

/** One alert, as every kind of channel is told it. */
export interface AlertMessage {
  event: NotificationEvent;
  /** ISO time the panel saw it. */
  at: string;
  title: string;
  message: string;
  /** The language of the title and message: the recipient's choice in the web app (de_DE). */
  lang: string;
  /** The panel page it concerns (the server's, the node's, the account's). */
  url: string;
  server?: { id: string; name: string };
  node?: { id: number; name: string };
}

/** sent; retry later (the far end was busy or away); failed for good; gone: the push subscription ended. */
export type SendOutcome = "sent" | "retry" | "failed" | "gone";

/** How long one delivery may take: a slow hook never holds the queue long. */
export const sendTimeoutMs = 10_000;

const outcomeOf = (status: number): SendOutcome =>
  status >= 200 && status < 300 ? "sent" : status === 429 || status >= 500 ? "retry" : "failed";

/** The body a webhook URL gets: Discord's and Slack's own shapes, else the alert as it is. */
export function webhookBody(url: string, message: AlertMessage): object {
  const { hostname, pathname } = new URL(url);
  const host = hostname.toLowerCase();
  if (
    (host === "discord.com" || host === "discordapp.com" || host.endsWith(".discord.com")) &&
    pathname.startsWith("/api/webhooks/")
  )
    return { content: `**${message.title}**\n${message.message}\n${message.url}`.slice(0, 2000) };
  if (host === "hooks.slack.com") return { text: `*${message.title}*\n${message.message}\n<${message.url}>` };
  return message;
}

/** `sha256=` + the hex HMAC-SHA256 of the exact body, under the channel's secret. */
export function signature(secret: string, body: Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function sendWebhook(
  url: string,
  secret: string,
  message: AlertMessage,
  allowed: AddressCheck,
): Promise<SendOutcome> {
  const body = Buffer.from(JSON.stringify(webhookBody(url, message)));
  try {
    const status = await checkedPost(
      url,
      body,
      {
        "content-type": "application/json",
        "user-agent": "Outpost-Alerts",
        "x-outpost-event": message.event,
        "x-outpost-signature": signature(secret, body),
      },
      { allowed, signal: AbortSignal.timeout(sendTimeoutMs) },
    );
    return outcomeOf(status);
  } catch {
    return "retry";
  }
}

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * One Web Push message: encrypted for the subscription (RFC 8291, aes128gcm)
 * and signed with the panel's VAPID key (RFC 8292) by the web-push package,
 * then posted through the same address check as webhooks.
 */
export async function sendPush(
  target: PushTarget,
  message: AlertMessage,
  vapid: VapidPair,
  subject: string,
  allowed: AddressCheck,
): Promise<SendOutcome> {
  const payload = JSON.stringify({
    title: message.title,
    body: message.message,
    url: message.url,
    tag: `${message.event}:${message.server?.id ?? message.node?.id ?? ""}`,
  });
  const details = webpush.generateRequestDetails(target, payload, {
    vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 24 * 3600,
    contentEncoding: "aes128gcm",
    urgency: "high",
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
  try {
    const status = await checkedPost(details.endpoint, details.body, headers, {
      allowed,
      signal: AbortSignal.timeout(sendTimeoutMs),
    });
    return status === 404 || status === 410 ? "gone" : outcomeOf(status);
  } catch {
    return "retry";
  }
}

export async function sendEmail(
  mailer: Mailer,
  to: string,
  company: string,
  message: AlertMessage,
  log: MailLog,
): Promise<SendOutcome> {
  const outcome = await mailer.send(alertMail(to, company, message), log);
  return outcome === "sent" ? "sent" : outcome === "failed" ? "retry" : "failed";
}

export function alertMail(to: string, company: string, message: AlertMessage): MailMessage {
  const lines = [message.message, "", message.url, ""];
  const html = [
    "<!doctype html>",
    `<html lang="${escapeHtml(message.lang.replace("_", "-"))}"><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(message.message)}</p>`,
    `<p><a href="${escapeHtml(message.url)}">${escapeHtml(message.url)}</a></p>`,
    "</body></html>",
    "",
  ].join("\n");
  return { to, subject: `${oneLine(company)}: ${oneLine(message.title)}`, text: lines.join("\n"), html };
}
