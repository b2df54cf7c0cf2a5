import { ApiError } from "../errors.ts";
import { testMail } from "./account-mail.ts";
import type { Settings } from "./settings.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Parts of the message (an invite token) that may go to the mailbox but never to a log. */
  secrets?: string[];
}

/** The panel's log, as Fastify's (pino) logger offers it. */
export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * What became of a message: "sent" (handed to the SMTP server, or written to
 * the log by the debug provider), "unavailable" (no provider this panel can
 * use is configured, or the debug provider had to withhold a secret of it) or
 * "failed" (the provider refused or did not answer; logged).
 */
export type MailOutcome = "sent" | "unavailable" | "failed";

/** How long one message may take end to end, so a dead mail server never holds a request long. */
export const mailTimeoutMs = 10_000;

const defaultSmtpPort = 587;
const implicitTlsPort = 465;

const mailSettings = [
  "panel.email.provider",
  "panel.email.from",
  "panel.email.host",
  "panel.email.username",
  "panel.email.password",
] as const;

/** `host`, `host:port`, `[v6]` or `[v6]:port`; undefined when the port is no port. */
export function parseSmtpHost(value: string): { host: string; port: number } | undefined {
  const text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:\s[\]]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultSmtpPort : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: match[1], port };
}

/** The parts of a sending error worth logging: never the settings, never the message. */
function describe(err: unknown): Record<string, unknown> {
  const e = err as { message?: string; code?: string; command?: string; responseCode?: number };
  return {
    message: e?.message ?? String(err),
    code: e?.code,
    command: e?.command,
    responseCode: e?.responseCode,
  };
}

/**
 * Sends one message with the provider configured in the panel settings
 * (panel.email.*, reference §10.2–§10.3). E-mail is best-effort (reference
 * §12.22): a failure is logged and reported as an outcome, never thrown.
 *
 * - `smtp`: through nodemailer to panel.email.host (`host:port`, port 587 by
 *   default, upgraded with STARTTLS when the server offers it, implicit TLS on
 *   465), with username/password when set; panel.email.from is required.
 * - `debug`: the message is written to the panel log instead (no settings in it,
 *   and no secret of the message: one that has any counts as not sent).
 * - "", `none`: no mail. `mailgun`, `mailjet`, `sendgrid` are HTTP APIs on the
 *   internet, which a panel on a private network cannot count on reaching, so
 *   this panel does not speak them and treats them as no mail.
 */
export class Mailer {
  constructor(
    private readonly settings: Settings,
    private readonly timeoutMs = mailTimeoutMs,
  ) {}

  async send(message: MailMessage, log: MailLog): Promise<MailOutcome> {
    return (await this.deliver(message, log)).outcome;
  }

  /**
   * Sends a test message to `to` and throws, with the reason, when it did not
   * go: 400 ErrEmailNotConfigured when no usable provider is set, 500
   * ErrEmailFailed with what the mail server said (as the reference answers 500).
   */
  async sendTest(to: string, log: MailLog): Promise<void> {
    const company = String(await this.settings.get("panel.settings.companyName"));
    const { outcome, reason } = await this.deliver(testMail(to, company), log);
    if (outcome === "unavailable") {
      throw new ApiError(400, "ErrEmailNotConfigured", "e-mail is not set up: ${reason}", { reason });
    }
    if (outcome === "failed") {
      throw new ApiError(500, "ErrEmailFailed", "the test e-mail was not sent: ${reason}", { reason });
    }
  }

  /** One message through the configured provider; never throws. */
  private async deliver(
    message: MailMessage,
    log: MailLog,
  ): Promise<{ outcome: MailOutcome; reason: string }> {
    const s = await this.settings.getMany(mailSettings);
    const provider = String(s["panel.email.provider"]);
    const from = String(s["panel.email.from"]).trim();
    if (provider === "debug") {
      // No secret is logged at any level, so a message carrying one reaches no one here: it
      // counts as not sent, and whoever may hand its content over gets it another way.
      const secrets = (message.secrets ?? []).filter(Boolean);
      const text = secrets.reduce((t, secret) => t.replaceAll(secret, "[secret withheld]"), message.text);
      log.info(
        { mail: { from, to: message.to, subject: message.subject, text } },
        "e-mail (debug provider: written here, not sent)",
      );
      if (secrets.length > 0) return { outcome: "unavailable", reason: "the debug provider logs no secret" };
      return { outcome: "sent", reason: "" };
    }
    if (provider !== "smtp") {
      if (provider !== "" && provider !== "none") {
        log.warn({ provider }, "e-mail provider not supported (only smtp and debug are): no mail sent");
        return {
          outcome: "unavailable",
          reason: `the provider ${provider} is not supported, only smtp and debug`,
        };
      }
      return { outcome: "unavailable", reason: "no e-mail provider is chosen" };
    }
    const address = parseSmtpHost(String(s["panel.email.host"]));
    if (!address || from === "") {
      log.warn(
        { provider },
        "smtp needs panel.email.host (host or host:port) and panel.email.from: no mail sent",
      );
      return { outcome: "unavailable", reason: "smtp needs a host (host or host:port) and a sender address" };
    }
    const user = String(s["panel.email.username"]);
    const pass = String(s["panel.email.password"]);
    // Loaded on the first message over SMTP: a panel that sends none never holds it in memory.
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport({
      host: address.host,
      port: address.port,
      secure: address.port === implicitTlsPort,
      auth: user || pass ? { user, pass } : undefined,
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    });
    let timer: NodeJS.Timeout | undefined;
    // The per-step timeouts restart on every reply; this bounds the whole exchange.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("mail server timed out"), { code: "ETIMEDOUT" })),
        this.timeoutMs,
      );
    });
    try {
      await Promise.race([
        transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        }),
        deadline,
      ]);
      log.info({ to: message.to, subject: message.subject }, "e-mail sent");
      return { outcome: "sent", reason: "" };
    } catch (err) {
      log.warn(
        { to: message.to, smtp: `${address.host}:${address.port}`, err: describe(err) },
        "e-mail not sent",
      );
      return { outcome: "failed", reason: smtpReason(err, `${address.host}:${address.port}`) };
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  }
}

/**
 * What to tell an administrator: the SMTP server's own reply when it gave one
 * (e.g. "535 Invalid username or password"), else the transport's error.
 */
function smtpReason(err: unknown, server: string): string {
  const e = err as { response?: string; message?: string; code?: string };
  if (e?.response) return e.response.trim();
  if (e?.code === "ECONNREFUSED" || /ECONNREFUSED/.test(e?.message ?? ""))
    return `${server} refused the connection`;
  return e?.message ?? String(err);
}
