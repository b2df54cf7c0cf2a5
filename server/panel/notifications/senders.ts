import { createHmac } from "node:crypto";
import type { NotificationEvent } from "../../contract/api/notifications.ts";
import { isDiscordHook } from "../../contract/discord-hook.ts";
import { type AddressCheck, checkedPost } from "../../net/public-address.ts";
import { escapeHtml, oneLine } from "../invite-mail.ts";
import type { Mailer, MailLog, MailMessage } from "../mailer.ts";
import type { VapidPair } from "./vapid.ts";

/** One alert, as every kind of channel is told it. */
export interface AlertMessage {
  /** What happened; "test" for the alert a channel's owner sends to try it. */
  event: NotificationEvent | "test";
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
/** Discord's embed colour per kind of alert: red for what broke, amber for a warning, blue for a test. */
const discordColour = (event: AlertMessage["event"]) =>
  event === "test"
    ? 0x1e88e5
    : event === "disk.nearLimit" || event === "account.newDevice"
      ? 0xf9a825
      : 0xd32f2f;

/** Slack's text escapes (&, <, >): a server named `<!channel>` must not ping a whole channel. */
const slackText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The body a hook gets: Discord an embed (title, text, link, time, a colour per kind) that may
 * mention no one, whatever a server's name says; Slack its text with its escapes; any other the
 * alert as it is, machine-readable.
 */
export function webhookBody(url: string, message: AlertMessage): object {
  if (isDiscordHook(url))
    return {
      embeds: [
        {
          title: message.title.slice(0, 256),
          description: message.message.slice(0, 4000),
          url: message.url,
          timestamp: message.at,
          color: discordColour(message.event),
        },
      ],
      allowed_mentions: { parse: [] },
    };
  if (new URL(url).hostname.toLowerCase() === "hooks.slack.com")
    return { text: `*${slackText(message.title)}*\n${slackText(message.message)}\n<${message.url}>` };
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
  const { default: webpush } = await import("web-push");
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
