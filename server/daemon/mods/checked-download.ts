import { createHash } from "node:crypto";
import dns from "node:dns";
import net from "node:net";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ModDownload, ModFileHashes } from "../../contract/node/mod-wire.ts";
import { ApiError } from "../../errors.ts";
import { checkedGet, isPublicAddress } from "../../net/public-address.ts";
import { type Sandbox, writeStreamOf } from "../sandbox/index.ts";

/**
 * A file fetched into a server's folder only if it is what its source said: streamed through
 * the public-address guard into a temporary name, hashed on the way, and refused (the caller
 * removes the temporary file) when a hash differs. Used for mods (mod-ops.ts) and the files a
 * Modrinth modpack lists (the mrpack install step).
 */

export type Hashes = Required<ModFileHashes>;

/** A mod or plugin is a jar (or a data pack's zip); a bigger file is refused while it streams. */
const maxModBytes = 512 * 1024 * 1024;
const downloadTimeoutMs = 5 * 60_000;

export const modErrors = {
  hashMismatch: (file: string) =>
    new ApiError(
      422,
      "ErrModHashMismatch",
      "${file} does not match the hash its source gave: nothing was installed",
      { file },
    ),
  downloadFailed: (file: string, cause?: unknown) =>
    new ApiError(
      502,
      "ErrModDownloadFailed",
      "${file} could not be downloaded: nothing was installed",
      { file },
      { cause },
    ),
};

/** Streams `source` through every hash the sources use, counting bytes; answers them once it ends. */
export function hashing(limit: number): { stream: Transform; result: () => Hashes & { size: number } } {
  const hashes = { sha1: createHash("sha1"), sha256: createHash("sha256"), sha512: createHash("sha512") };
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new Error(`larger than ${limit} bytes`));
      for (const hash of Object.values(hashes)) hash.update(chunk);
      done(null, chunk);
    },
  });
  return {
    stream,
    result: () => ({
      size,
      sha1: hashes.sha1.digest("hex"),
      sha256: hashes.sha256.digest("hex"),
      sha512: hashes.sha512.digest("hex"),
    }),
  };
}

/** Whether every hash the source gave matches what arrived (at least one must be given). */
function matches(expected: ModFileHashes, got: Hashes): boolean {
  const given = (Object.keys(expected) as (keyof ModFileHashes)[]).filter((k) => expected[k]);
  return given.length > 0 && given.every((k) => expected[k] === got[k]);
}

export async function fetchChecked(
  sandbox: Sandbox,
  download: ModDownload,
  part: string,
  allowed: (address: string) => boolean,
  cancel?: AbortSignal,
): Promise<void> {
  const timeout = AbortSignal.timeout(downloadTimeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  let response: Awaited<ReturnType<typeof checkedGet>>;
  try {
    response = await checkedGet(download.url, {
      allowed,
      signal,
      headers: { "user-agent": "outpost-daemon" },
    });
  } catch (error) {
    throw modErrors.downloadFailed(download.file, error);
  }
  const handle = await sandbox.openWrite(part);
  const { stream, result } = hashing(maxModBytes);
  try {
    await pipeline(response, stream, writeStreamOf(handle), { signal });
  } catch (error) {
    throw modErrors.downloadFailed(download.file, error);
  } finally {
    await handle.close().catch(() => {});
  }
  if (!matches(download.hashes, result())) throw modErrors.hashMismatch(download.file);
}

/** Public addresses, and those of the hosts an administrator named as sources. */
export async function allowedAddresses(hosts: readonly string[]): Promise<(address: string) => boolean> {
  const trusted = new Set<string>();
  for (const host of hosts) {
    const bare = host.replace(/^\[(.*)\]$/, "$1");
    if (net.isIP(bare)) trusted.add(bare.toLowerCase());
    else
      for (const { address } of await dns.promises.lookup(bare, { all: true }).catch(() => []))
        trusted.add(address.toLowerCase());
  }
  return (address) => isPublicAddress(address) || trusted.has(address.toLowerCase());
}
