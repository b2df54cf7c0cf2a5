import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ModFileEntry, ModInstallBody, NodeMods } from "../../contract/node/mod-wire.ts";
import { readStreamOf, type Sandbox } from "../sandbox/index.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { allowedAddresses, fetchChecked, type Hashes, hashing } from "./checked-download.ts";
import { Fingerprint, keptLength } from "./fingerprint.ts";

/** Where a file waits for its hash check: a dot name the listing skips, removed on any failure. */
const partPrefix = ".outpost-mod-";

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

  /** Its hashes, and CurseForge's fingerprint, which takes a second read (fingerprint.ts). */
  private async hashFile(
    sandbox: Sandbox,
    relative: string,
  ): Promise<Hashes & { size: number; murmur2: number }> {
    const { stream, result } = hashing(Number.POSITIVE_INFINITY);
    let kept = 0;
    await this.readThrough(sandbox, relative, stream, (chunk) => {
      kept += keptLength(chunk);
    });
    const fingerprint = new Fingerprint(kept);
    await this.readThrough(sandbox, relative, undefined, (chunk) => fingerprint.update(chunk));
    return { ...result(), murmur2: fingerprint.digest() };
  }

  private async readThrough(
    sandbox: Sandbox,
    relative: string,
    through: Transform | undefined,
    each: (chunk: Buffer) => void,
  ): Promise<void> {
    const handle = await sandbox.openRead(relative);
    const consume = async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) each(chunk);
    };
    try {
      if (through) await pipeline(readStreamOf(handle), through, consume);
      else await pipeline(readStreamOf(handle), consume);
    } finally {
      await handle.close().catch(() => {});
    }
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
        await fetchChecked(sandbox, download, part, allowed);
      }
      for (const { part, file } of fetched) await sandbox.rename(part, file);
    } catch (error) {
      for (const { part } of fetched) await sandbox.remove(part).catch(() => {});
      throw error;
    }
  }

  async remove(id: string, folder: string, file: string): Promise<void> {
    await this.files(id).remove(path.posix.join(folder, path.posix.basename(file)));
  }
}
