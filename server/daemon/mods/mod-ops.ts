import { createHash, randomBytes } from "node:crypto";
import dns from "node:dns";
import fsp from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type {
  ModDownload,
  ModFileEntry,
  ModFileHashes,
  ModInstallBody,
  NodeMods,
} from "../../contract/node/mod-wire.ts";
import { ApiError } from "../../errors.ts";
import { checkedGet, isPublicAddress } from "../../net/public-address.ts";
import { readStreamOf, type Sandbox, writeStreamOf } from "../sandbox/index.ts";
import type { ServerStore } from "../servers/server-store.ts";

/** A mod or plugin is a jar (or a data pack's zip); a bigger file is refused while it streams. */
const maxModBytes = 512 * 1024 * 1024;
const downloadTimeoutMs = 5 * 60_000;
/** Where a file waits for its hash check: a dot name the listing skips, removed on any failure. */
const partPrefix = ".outpost-mod-";

export const modErrors = {
  hashMismatch: (file: string) =>
    new ApiError(
      422,
      "ErrModHashMismatch",
      "${file} does not match the hash its source gave: nothing was installed",
      {
        file,
      },
    ),
  downloadFailed: (file: string, cause?: unknown) =>
    new ApiError(
      502,
      "ErrModDownloadFailed",
      "${file} could not be downloaded: nothing was installed",
      { file },
      {
        cause,
      },
    ),
};

type Hashes = Required<ModFileHashes>;

/** Streams `source` through every hash the sources use, counting bytes; answers them once it ends. */
function hashing(limit: number): { stream: Transform; result: () => Hashes & { size: number } } {
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

/**
 * A server's mods and plugins on this node (issue 37). Files are fetched through the
 * public-address guard (net/public-address.ts) — only the hosts an administrator chose as
 * sources may be otherwise — and written through the server's sandbox, as its users' files are.
 * Each lands under a temporary name and is renamed into place only once every file of the
 * install matched its hash, so a mismatch leaves nothing behind.
 */
export class ModOps implements NodeMods {
  constructor(private readonly store: ServerStore) {}

  private files(id: string): Sandbox {
    return this.store.get(id).userFiles;
  }

  async list(id: string, folder: string): Promise<ModFileEntry[]> {
    const sandbox = this.files(id);
    const location = await sandbox.resolve(folder);
    if (!location.stats?.isDirectory()) return [];
    const { handle, base } = await sandbox.openResolvedFolder(location, folder);
    let names: string[];
    try {
      const entries = await fsp.readdir(base, { withFileTypes: true });
      names = entries.filter((e) => e.isFile() && !e.name.startsWith(".")).map((e) => e.name);
    } finally {
      await handle.close();
    }
    const listed: ModFileEntry[] = [];
    for (const file of names.sort()) {
      const hashed = await this.hashFile(sandbox, `${location.relative}/${file}`).catch(() => undefined);
      if (hashed) listed.push({ file, ...hashed });
    }
    return listed;
  }

  private async hashFile(sandbox: Sandbox, relative: string): Promise<Hashes & { size: number }> {
    const handle = await sandbox.openRead(relative);
    const { stream, result } = hashing(Number.POSITIVE_INFINITY);
    try {
      await pipeline(readStreamOf(handle), stream, async (chunks: AsyncIterable<Buffer>) => {
        for await (const _chunk of chunks) {
          // Read only to be hashed.
        }
      });
    } finally {
      await handle.close().catch(() => {});
    }
    return result();
  }

  async install(id: string, body: ModInstallBody): Promise<void> {
    const sandbox = this.files(id);
    const folder = (await sandbox.mkdirp(body.folder)).relative;
    const allowed = await allowedAddresses(body.trustedHosts);
    const fetched: { part: string; file: string }[] = [];
    try {
      for (const download of body.files) {
        const part = `${folder}/${partPrefix}${randomBytes(6).toString("hex")}.part`;
        fetched.push({ part, file: `${folder}/${download.file}` });
        await this.fetchChecked(sandbox, download, part, allowed);
      }
      for (const { part, file } of fetched) await sandbox.rename(part, file);
    } catch (error) {
      for (const { part } of fetched) await sandbox.remove(part).catch(() => {});
      throw error;
    }
  }

  private async fetchChecked(
    sandbox: Sandbox,
    download: ModDownload,
    part: string,
    allowed: (address: string) => boolean,
  ): Promise<void> {
    const signal = AbortSignal.timeout(downloadTimeoutMs);
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

  async remove(id: string, folder: string, file: string): Promise<void> {
    await this.files(id).remove(path.posix.join(folder, path.posix.basename(file)));
  }
}

/** Public addresses, and those of the hosts an administrator named as sources. */
async function allowedAddresses(hosts: readonly string[]): Promise<(address: string) => boolean> {
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
