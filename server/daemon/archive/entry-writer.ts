import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Sandbox, sandboxErrors, writeStreamOf } from "../sandbox/index.ts";
import type { DiskBudget } from "../servers/disk-quota.ts";

/**
 * Writes archive entries into a folder of a server, each one through the
 * sandbox: entry names that are absolute or hold a `..` segment
 * are refused (ErrIllegalFileAccess, the whole extraction stops), symlink
 * entries are made only when their target stays inside the server folder,
 * hard links only to files already extracted inside it. Owners are not
 * restored, modes keep only the permission bits, and files (not folders)
 * keep their modification time.
 */
export class EntryWriter {
  constructor(
    private readonly sandbox: Sandbox,
    /** Root-relative destination folder ("" for the root); it exists. */
    private readonly destination: string,
    private readonly signal?: AbortSignal,
    /** Leading folders dropped from every name (a pack's single top folder), like tar --strip-components. */
    private readonly stripComponents = 0,
    /** The server's disk limit: file bytes are counted against it as they are written. */
    private readonly budget?: DiskBudget,
  ) {}

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
    await this.sandbox.mkdirp(this.place(name));
  }

  /** True when stripping leaves nothing of the name (the stripped top folder itself). */
  stripped(name: string): boolean {
    return this.stripComponents > 0 && this.place(name) === this.destination;
  }

  /** Writes a file entry; `modified`, when the archive tells it, becomes the file's time (a restore keeps it). */
  async file(name: string, mode: number | undefined, body: Readable, modified?: Date): Promise<void> {
    const place = this.place(name);
    if (place === this.destination) throw sandboxErrors.illegal(name, "is a file entry without a name");
    await this.sandbox.mkdirp(path.posix.dirname(place));
    const permissions = mode ? (mode & 0o777) | 0o600 : 0o644;
    const handle = await this.sandbox.openWrite(place, { mode: permissions });
    try {
      if (this.budget)
        await pipeline(body, this.budget.limiter(), writeStreamOf(handle), { signal: this.signal });
      else await pipeline(body, writeStreamOf(handle), { signal: this.signal });
      await handle.chmod(permissions);
      if (modified && !Number.isNaN(modified.getTime())) await handle.utimes(modified, modified);
    } finally {
      await handle.close();
    }
  }

  async symlink(name: string, target: string): Promise<void> {
    const place = this.place(name);
    await this.sandbox.mkdirp(path.posix.dirname(place));
    await this.sandbox.symlink(target.replace(/\\/g, "/"), place);
  }

  /** Tar hard links name their target by its path in the archive. */
  async hardlink(name: string, target: string): Promise<void> {
    const place = this.place(name);
    await this.sandbox.mkdirp(path.posix.dirname(place));
    await this.sandbox.hardlink(this.place(target), place);
  }
}
