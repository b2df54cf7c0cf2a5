import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Duplex } from "node:stream";
import { type Static, Type } from "typebox";

/**
 * Shapes that cross the panel↔node seam when a server moves to another node.
 *
 * The source node holds the stopped server and mints a grant; the panel hands
 * the grant and the source's export address to the target, which fetches the
 * archive from the source itself (the panel never carries the bytes), checks
 * its size against what the source says it sent, and installs it.
 */
export const TransferOffer = Type.Object({
  /** Short-lived proof, for the source only, that the bearer may fetch this one server. */
  grant: Type.String(),
  /** What the source will send, about (files and backups): for progress only. */
  bytes: Type.Number(),
  /** Where the target fetches: the link names a remote node's address; the local node's is the panel's. */
  url: Type.Optional(Type.String()),
});
export type TransferOffer = Static<typeof TransferOffer>;

/** Where the target fetches from: `<url>` streams the archive, `<url>/digest` answers what was sent. */
export const TransferSourceAddress = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2000, pattern: "^https?://" }),
  grant: Type.String({ minLength: 1, maxLength: 1000 }),
});
export type TransferSourceAddress = Static<typeof TransferSourceAddress>;

/**
 * What the target received and checked: the archive's size. No digest of
 * the stream: tar writes and reads the connection itself at both ends (no
 * Node process sees the bytes to hash them); TCP's checksums (and TLS where
 * the address is https) guard the bytes on the way, tar's own header
 * checksums and end-of-archive the structure, and the sizes a stream cut short.
 */
export const TransferReceipt = Type.Object({ bytes: Type.Number() });
export type TransferReceipt = Static<typeof TransferReceipt>;

export const TransferProgress = Type.Object({ received: Type.Number() });
export type TransferProgress = Static<typeof TransferProgress>;
/** GET …/progress: `{}` when no pull is under way. */
export const TransferProgressAnswer = Type.Partial(TransferProgress);

export const NodeSpace = Type.Object({
  /** Bytes free where the node keeps server files, and the file system's size. */
  free: Type.Number(),
  total: Type.Number(),
});
export type NodeSpace = Static<typeof NodeSpace>;

/** What the panel asks of a node for moving servers between nodes. */
export interface NodeTransfers {
  /**
   * As the source: holds the server (stopped, idle: 409 ErrServerRunning
   * otherwise) so it cannot start or change while it is copied, and answers
   * a grant to fetch it. The hold ends with release(), or by itself a while
   * after the last export ended (a panel that died mid-transfer).
   */
  offer(serverId: string): Promise<TransferOffer>;
  /** As the source: ends the hold (the transfer failed, or the server is gone). */
  release(serverId: string): Promise<void>;
  /**
   * As the target: fetches the server from the source, checks it, and makes
   * it a server of this node (stopped). All or nothing: on any failure
   * nothing of it is left here.
   */
  pull(serverId: string, source: TransferSourceAddress): Promise<TransferReceipt>;
  /**
   * As the target, once the panel switched the server here: starts its tasks. A pulled
   * server's tasks wait for this, so none fires on both nodes before the switch.
   */
  activate(serverId: string): Promise<void>;
  /** As the target: bytes received so far of a pull under way (undefined when none). */
  progress(serverId: string): Promise<TransferProgress | undefined>;
  space(): Promise<NodeSpace>;
}

/** The source side that answers the target's fetch, on the node itself (or the panel, for its local node). */
export interface TransferSource {
  /**
   * Checks the grant (good for one export; throws ErrTransferGrantInvalid) and answers
   * what writes the archive into the upgraded connection of the target's request.
   */
  exportTo(serverId: string, grant: string): (socket: Duplex) => Promise<void>;
  /** Size of what an export under this grant sent, once it ended. */
  digest(serverId: string, grant: string): TransferReceipt;
}

/** The upgrade the target asks of the export address: the archive's own connection (server/daemon/transfers/transfer-connection.ts). */
export const transferUpgrade = "outpost-transfer";

/** The path of a node's export of one server, under its base address. */
export const transferExportPath = (serverId: string) =>
  `/daemon/transfer/${encodeURIComponent(serverId)}/export`;

/** The archive's layout: the server folder, its backups folder, and the node-side files beside them. */
export const transferLayout = {
  files: "files",
  backups: "backups",
  meta: "meta",
  /** Node-side files kept beside the definition (`<id>.json`, `<id>.cron` …), by suffix. */
  metaFiles: ["json", "cron", "task-runs", "not-installed"],
} as const;

/** A grant lives a minute: long enough to start the fetch, useless soon after a leak. */
export const grantLifetimeSeconds = 60;

const b64 = (data: Buffer | string) => Buffer.from(data).toString("base64url");
const sign = (input: string, key: Buffer) => createHmac("sha256", key).update(input).digest("base64url");

export interface GrantClaims {
  srv: string;
  exp: number;
  jti: string;
}

/** `<claims>.<mac>`, keyed with a secret only the source node holds. */
export function signGrant(key: Buffer, serverId: string, now = Date.now()): GrantClaims & { grant: string } {
  const claims: GrantClaims = {
    srv: serverId,
    exp: Math.floor(now / 1000) + grantLifetimeSeconds,
    jti: randomBytes(12).toString("base64url"),
  };
  const body = b64(JSON.stringify(claims));
  return { ...claims, grant: `${body}.${sign(body, key)}` };
}

/** The claims of a good grant for this server, or undefined. `expired` lets a grant past its minute through. */
export function verifyGrant(
  key: Buffer,
  grant: string,
  serverId: string,
  options: { allowExpired?: boolean; now?: number } = {},
): GrantClaims | undefined {
  const [body, mac, extra] = grant.split(".");
  if (!body || !mac || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(body, key));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let claims: GrantClaims;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString());
  } catch {
    return undefined;
  }
  if (claims.srv !== serverId || typeof claims.exp !== "number" || typeof claims.jti !== "string")
    return undefined;
  if (!options.allowExpired && claims.exp < (options.now ?? Date.now()) / 1000) return undefined;
  return claims;
}
