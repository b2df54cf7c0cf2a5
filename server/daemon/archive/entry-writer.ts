import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Sandbox, sandboxErrors, writeStreamOf } from "../sandbox/index.ts";
import type { ExtractBudget } from "./extract-budget.ts";

/** Files up to this size are read into memory and created in one go when the folder is the extraction's own. */
const smallFile = 256 * 1024;

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes archive entries into a folder of a server, each one through the
 * sandbox: entry names that are absolute or hold a `..` segment
 * are refused (ErrIllegalFileAccess, the whole extraction stops), symlink
 * entries are made only when their target stays inside the server folder,
 * hard links only to files already extracted inside it. Owners are not
 * restored, modes keep only the permission bits, and files (not folders)
 * keep their modification time. File bytes are counted against a budget
 * (extract-budget.ts); the files and links it created are remembered, so a
 * refused extraction can take them back (undo).
 */
export class EntryWriter {
  /** Root-relative places this extraction created (not ones it overwrote), in order. */
  private readonly created: string[] = [];
  /** Folders this extraction made or found, in a folder of its own: not walked again for each entry. */
  private readonly folders = new Set<string>();

  constructor(
    private readonly sandbox: Sandbox,
    /** Root-relative destination folder ("" for the root); it exists. */
    private readonly destination: string,
    private readonly signal?: AbortSignal,
    /** Leading folders dropped from every name (a pack's single top folder), like tar --strip-components. */
    private readonly stripComponents = 0,
    private readonly budget?: ExtractBudget,
    /**
     * The destination was made empty for this extraction and nothing else
     * writes there meanwhile (a restore's or a move's staging folder): every
     * entry is new, and a folder once made stays. Each entry then costs a few
     * file-system calls fewer; the sandbox checks every open all the same.
     */
    private readonly ownFolder = false,
  ) {}

  /** mkdir -p through the sandbox, once per folder in a folder of its own. */
  private async folder(place: string): Promise<void> {
    if (this.ownFolder && this.folders.has(place)) return;
    await this.sandbox.mkdirp(place);
    if (!this.ownFolder) return;
    for (let at = place; at !== "." && at !== "" && !this.folders.has(at); at = path.posix.dirname(at)) {
      this.folders.add(at);
    }
  }

  private stopped = false;

  /** The extraction failed: no entry is begun or created from now on. */
  stop(): void {
    this.stopped = true;
  }

  private going(): void {
    if (this.stopped) throw new Error("the extraction stopped");
  }

  /** Removes what this extraction created (most recent first); what it overwrote stays as it now is. */
  async undo(): Promise<void> {
    for (const place of this.created.reverse()) {
      await this.sandbox.remove(place).catch(() => {});
    }
  }

  private async remember(place: string): Promise<void> {
    // In a folder of its own, the whole folder goes when it is refused.
    if (this.ownFolder) return;
    const existing = await this.sandbox.resolve(place, { followFinal: false }).catch(() => undefined);
    if (!existing?.stats) this.created.push(place);
  }

  /** The root-relative place of an entry name (the destination itself when stripping leaves nothing). */
  place(name: string): string {
    const shown = name;
    if (name.includes("\0")) throw sandboxErrors.illegal(shown, "is an entry name with a NUL byte");
    const clean = name.replace(/\\/g, "/");
    if (clean.startsWith("/") || /^[A-Za-z]:\//.test(clean)) {
      throw sandboxErrors.illegal(shown, "is an absolute entry name");
    }
    // Any `..` segment is refused, as tar and yauzl do: even one that stays
    // inside by its text (`link/../x`) would mean something else once a link
    // on the way is read by the kernel.
    if (clean.split("/").includes("..")) {
      throw sandboxErrors.illegal(shown, "is an entry name with a .. segment");
    }
    const normalised = path.posix.normalize(clean);
    let inner = normalised === "." ? "" : normalised.replace(/\/+$/, "");
    if (this.stripComponents > 0) inner = inner.split("/").slice(this.stripComponents).join("/");
    return this.destination && inner ? `${this.destination}/${inner}` : this.destination || inner;
  }

  async directory(name: string): Promise<void> {
    this.going();
    await this.folder(this.place(name));
  }

  /** True when stripping leaves nothing of the name (the stripped top folder itself). */
  stripped(name: string): boolean {
    return this.stripComponents > 0 && this.place(name) === this.destination;
  }

  /** Writes a file entry; `modified`, when the archive tells it, becomes the file's time (a restore keeps it). */
  async file(
    name: string,
    mode: number | undefined,
    body: Readable,
    modified?: Date,
    /** The entry's size when the archive tells it before its bytes (tar does). */
    size?: number,
  ): Promise<void> {
    this.going();
    const place = this.place(name);
    if (place === this.destination) throw sandboxErrors.illegal(name, "is a file entry without a name");
    await this.folder(path.posix.dirname(place));
    const permissions = mode ? (mode & 0o777) | 0o600 : 0o644;
    await this.remember(place);
    if (this.ownFolder && size !== undefined && size <= smallFile) {
      // A small new file in one go (Sandbox.createNewFileSync): most of a world's files are.
      const data = await bytesOf(body);
      this.budget?.take(data.length);
      this.signal?.throwIfAborted();
      this.going();
      if (this.sandbox.createNewFileSync(place, data, permissions, modified)) return;
      body = Readable.from([data]);
    }
    const handle = await this.sandbox.openWrite(place, { mode: permissions, likelyNew: this.ownFolder });
    try {
      const budget = this.budget;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          try {
            budget?.take(chunk.length);
            done(null, chunk);
          } catch (error) {
            done(error as Error);
          }
        },
      });
      await pipeline(body, counted, writeStreamOf(handle), { signal: this.signal });
      await handle.chmod(permissions);
      if (modified && !Number.isNaN(modified.getTime())) await handle.utimes(modified, modified);
    } finally {
      await handle.close();
    }
  }

  async symlink(name: string, target: string): Promise<void> {
    this.going();
    const place = this.place(name);
    await this.folder(path.posix.dirname(place));
    await this.remember(place);
    await this.sandbox.symlink(target.replace(/\\/g, "/"), place);
  }

  /** Tar hard links name their target by its path in the archive. */
  async hardlink(name: string, target: string): Promise<void> {
    this.going();
    const place = this.place(name);
    await this.folder(path.posix.dirname(place));
    await this.sandbox.hardlink(this.place(target), place);
  }
}
