import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { waitUntil } from "./poll.ts";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A loopback HTTP listener that stands for a webhook receiver and a push
 * service: it keeps every request and answers each with the next status of
 * `answers` (then `fallback`), so a test can make the first try fail.
 */
export class HookListener {
  readonly received: ReceivedRequest[] = [];
  answers: number[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.statusCode = this.answers.shift() ?? this.fallback(req.url ?? "");
      res.end();
    });
  });

  constructor(
    private readonly fallback: (path: string) => number = (p) => (p.startsWith("/push") ? 201 : 200),
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The requests to one path so far. */
  to(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits for the n-th request (1-based) to `path`. */
  async nth(path: string, n: number, timeoutMs = 20_000): Promise<ReceivedRequest> {
    await waitUntil(async () => this.to(path).length >= n, timeoutMs, 50);
    return this.to(path)[n - 1];
  }
}

/**
 * A browser's side of a Web Push subscription, written from RFC 8291 with
 * node:crypto only (not the web-push package the panel sends with): the
 * subscription's P-256 key pair and auth secret, and the decryption of an
 * `aes128gcm` message (RFC 8188) sent to it.
 */
export class PushReceiver {
  private readonly ecdh = crypto.createECDH("prime256v1");
  readonly publicKey: Buffer;
  readonly auth = crypto.randomBytes(16);

  constructor() {
    this.publicKey = this.ecdh.generateKeys();
  }

  subscription(endpoint: string) {
    return {
      endpoint,
      expirationTime: null,
      keys: { p256dh: this.publicKey.toString("base64url"), auth: this.auth.toString("base64url") },
    };
  }

  decrypt(body: Buffer): string {
    // RFC 8188 header: salt (16) | record size (4) | key id length (1) | key id (the sender's public key).
    const salt = body.subarray(0, 16);
    const recordSize = body.readUInt32BE(16);
    const idLength = body[20];
    const senderKey = body.subarray(21, 21 + idLength);
    const records = body.subarray(21 + idLength);
    if (records.length > recordSize) throw new Error("more than one record");
    // RFC 8291 §3.3-3.4: the input keying material from ECDH and the auth secret.
    const shared = this.ecdh.computeSecret(senderKey);
    const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), this.publicKey, senderKey]);
    const ikm = Buffer.from(crypto.hkdfSync("sha256", shared, this.auth, keyInfo, 32));
    // RFC 8188 §2.2-2.3: the content encryption key and nonce (one record: sequence number 0).
    const cek = Buffer.from(
      crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16),
    );
    const nonce = Buffer.from(
      crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12),
    );
    const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
    decipher.setAuthTag(records.subarray(records.length - 16));
    const padded = Buffer.concat([
      decipher.update(records.subarray(0, records.length - 16)),
      decipher.final(),
    ]);
    // The last record ends with the delimiter 0x02 and then zero or more 0x00 of padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error("no last-record delimiter");
    return padded.subarray(0, end).toString("utf8");
  }
}

/**
 * Checks a VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<key>`,
 * the JWT signed ES256 by that key, for the push service's origin. Answers the claims.
 */
export function verifyVapid(
  header: string | undefined,
  audience: string,
): { key: string; claims: Record<string, unknown> } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, jwt, key] = match;
  const [head, payload, signature] = jwt.split(".");
  const point = Buffer.from(key, "base64url");
  const publicKey = crypto.createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const valid = crypto.verify(
    "sha256",
    Buffer.from(`${head}.${payload}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!valid) throw new Error("the VAPID signature does not verify");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
  if (claims.aud !== audience) throw new Error(`VAPID audience ${claims.aud} is not ${audience}`);
  return { key, claims };
}
