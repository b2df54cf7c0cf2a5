import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { PanelClient } from "./http-client.ts";
import { waitUntil } from "./poll.ts";

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** The user the client authenticated as, if it did. */
  user: string | undefined;
  headers: Map<string, string>;
  /** The decoded parts by content type (text/plain, text/html). */
  parts: Map<string, string>;
  raw: string;
}

/** Header lines unfolded, names lower-cased. */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return Buffer.from(
        body
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        "latin1",
      ).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** A header's text with its RFC 2047 encoded words (=?UTF-8?Q?…?=, =?UTF-8?B?…?=) decoded. */
export function headerText(value: string | undefined): string {
  return (value ?? "")
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
    );
}

function split(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: parseHeaders(raw), body: "" };
  return { headers: parseHeaders(raw.slice(0, at)), body: raw.slice(at).replace(/^\r?\n\r?\n/, "") };
}

/** The leaf parts of a MIME message, decoded, by content type. */
function leafParts(headers: Map<string, string>, body: string, into: Map<string, string>): void {
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      const part = split(section.replace(/^\r?\n/, ""));
      leafParts(part.headers, part.body, into);
    }
    return;
  }
  into.set(
    type.split(";")[0].trim().toLowerCase(),
    decodeBody(body, headers.get("content-transfer-encoding")),
  );
}

/**
 * A real SMTP server on 127.0.0.1 for tests: it takes every message (after
 * AUTH with the given credentials, when given) and keeps it. No STARTTLS: the
 * test talks plain SMTP on loopback. `refuseRecipients` makes it answer 550 to
 * every RCPT TO.
 */
export class SmtpInbox {
  readonly mails: ReceivedMail[] = [];
  refuseRecipients = false;
  private server: SMTPServer;
  private listening = false;

  constructor(private readonly credentials?: { username: string; password: string }) {
    this.server = new SMTPServer({
      disabledCommands: credentials ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
      authOptional: !credentials,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        const ok =
          this.credentials &&
          auth.username === this.credentials.username &&
          auth.password === this.credentials.password;
        if (ok) callback(null, { user: auth.username });
        else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
      onRcptTo: (_address, _session, callback) => {
        if (this.refuseRecipients)
          callback(Object.assign(new Error("No such mailbox here"), { responseCode: 550 }));
        else callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const { headers, body } = split(raw);
          const parts = new Map<string, string>();
          leafParts(headers, body, parts);
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            user: session.user as string | undefined,
            headers,
            parts,
            raw,
          });
          callback();
        });
      },
    });
  }

  /** Listens on a free loopback port and answers it. */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    this.listening = true;
    return (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for the n-th message (1-based) to arrive. */
  async nth(n: number): Promise<ReceivedMail> {
    await waitUntil(async () => this.mails.length >= n, 10_000, 50);
    return this.mails[n - 1];
  }
}

/** Points a panel's e-mail at an inbox on `port` (plain SMTP, no sign-in); `admin` holds settings.edit. */
export async function mailToInbox(admin: PanelClient, port: number): Promise<void> {
  const res = await admin.post("/api/settings", {
    "panel.email.provider": "smtp",
    "panel.email.host": `127.0.0.1:${port}`,
    "panel.email.from": "panel@example.com",
  });
  if (res.status !== 204) throw new Error(`settings not saved: ${res.status} ${res.text}`);
}
