import type { EventEmitter } from "node:events";
import type { FileHandle } from "node:fs/promises";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Attributes, SFTPWrapper } from "ssh2";
import { type Sandbox, sandboxErrors } from "../sandbox/index.ts";
import { type DiskLedger, newFolderBytes } from "../servers/disk-ledger.ts";
import { FolderReader } from "./folder-reader.ts";
import { attrsOf, longNameOf } from "./listing.ts";
import { closeFile, creationMode, HandleTable, type OpenFile, writeAll } from "./open-handles.ts";
import { OPEN_MODE, STATUS_CODE } from "./sftp-codes.ts";
import { Refusal, readOnly, sftpStatusOf } from "./sftp-status.ts";

/** Bytes answered per READ at most (OpenSSH asks for 32 KiB; a short read is fine in SFTP). */
const maxReadLength = 64 * 1024;
/** Names answered per READDIR. */
const namesPerBatch = 100;
/**
 * Requests one session may have under way at once. OpenSSH's client keeps 64 in flight and
 * WinSCP and FileZilla fewer; a client that pipelines thousands (each a file system call or
 * more) gets the ones over this answered FAILURE at once, for the cost of that answer.
 */
export const maxRequestsInFlight = 256;
/**
 * An SFTP path as the session sees it: "/" is the server's folder, a relative
 * path starts there (it is the session's home), and ".." stops there, as in a
 * chroot — `cd ..`, `../../etc/passwd` and `/etc/passwd` all name places
 * inside the folder. The sandbox then resolves that place, symlinks and all.
 */
export function sessionPath(requested: string): string {
  return path.posix.resolve("/", requested);
}

/** Tells the node's activity log of one change this session made (sftp-server.ts fills in who and where). */
export type SftpRecord = (action: string, subject: string, details?: Record<string, unknown>) => void;

/**
 * One SFTP channel, confined to one server's folder: every path goes through
 * that server's sandbox, and files are read and written through the handles
 * the sandbox opened, one request's bytes at a time (nothing holds a whole
 * file). Handles still open when the channel ends are closed.
 */
export class SftpSession {
  private readonly handles = new HandleTable();
  private inFlight = 0;

  /** The server's disk use and limit; none means no limit. */
  private readonly disk?: DiskLedger;
  /** Whether requests that change files are served (`server.files.edit`), else refused. */
  private readonly mayWrite: boolean;
  private readonly record: SftpRecord;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly sandbox: Sandbox,
    private readonly log: (msg: string) => void,
    options: { disk?: DiskLedger; write: boolean; record?: SftpRecord },
  ) {
    this.disk = options.disk;
    this.mayWrite = options.write;
    this.record = options.record ?? (() => {});
    this.route("OPEN", (id, filename: string, flags: number, attrs: Attributes) =>
      this.open(id, filename, flags, attrs),
    );
    this.route("READ", (id, handle: Buffer, offset: number, length: number) =>
      this.read(id, handle, offset, length),
    );
    this.route("WRITE", (id, handle: Buffer, offset: number, data: Buffer) =>
      this.write(id, handle, offset, data),
    );
    this.route("FSTAT", (id, handle: Buffer) => this.fstat(id, handle));
    this.routeChange("FSETSTAT", (id, handle: Buffer, attrs: Attributes) => this.fsetstat(id, handle, attrs));
    this.route("CLOSE", (id, handle: Buffer) => this.close(id, handle));
    this.route("OPENDIR", (id, folder: string) => this.opendir(id, folder));
    this.route("READDIR", (id, handle: Buffer) => this.readdir(id, handle));
    this.route("STAT", (id, p: string) => this.stat(id, p, true));
    this.route("LSTAT", (id, p: string) => this.stat(id, p, false));
    this.routeChange("SETSTAT", (id, p: string, attrs: Attributes) => this.setstat(id, p, attrs));
    this.route("REALPATH", (id, p: string) => this.realpath(id, p));
    this.route("READLINK", (id, p: string) => this.readlink(id, p));
    this.routeChange("REMOVE", (id, p: string) => this.remove(id, p));
    this.routeChange("RMDIR", (id, p: string) => this.rmdir(id, p));
    this.routeChange("MKDIR", (id, p: string) => this.mkdir(id, p));
    this.routeChange("RENAME", (id, from: string, to: string) => this.rename(id, from, to));
    // ssh2 hands OpenSSH's swapped SYMLINK arguments over in the order of the
    // draft: the link's path first, then what it points to.
    this.routeChange("SYMLINK", (id, link: string, target: string) => this.symlink(id, link, target));
    // EXTENDED requests (posix-rename, statvfs…) have no listener: ssh2 answers OP_UNSUPPORTED.
    // The client is done (EOF): close the channel, as OpenSSH's sftp-server exits.
    sftp.on("end", () => sftp.end());
    sftp.on("close", () => void this.closeAll());
  }

  /** Every request answers once: its own reply, or a status made from what it threw. */
  private route<A extends unknown[]>(event: string, run: (id: number, ...args: A) => Promise<void>): void {
    (this.sftp as unknown as EventEmitter).on(event, (id: number, ...args: A) => {
      if (this.inFlight >= maxRequestsInFlight) {
        this.fail(
          id,
          event,
          new Refusal(STATUS_CODE.FAILURE, `more than ${maxRequestsInFlight} requests in flight`),
        );
        return;
      }
      this.inFlight++;
      run(id, ...args)
        .catch((error) => this.fail(id, event, error))
        .finally(() => {
          this.inFlight--;
        });
    });
  }

  /**
   * A request that changes files, served only when the session may write; a
   * read-only one is answered permission denied, as OpenSSH's `sftp-server -R`
   * answers (WRITE needs a handle opened for writing, refused in open).
   */
  private routeChange<A extends unknown[]>(
    event: string,
    run: (id: number, ...args: A) => Promise<void>,
  ): void {
    this.route(event, async (id: number, ...args: A) => {
      if (!this.mayWrite) throw readOnly();
      // A move to another node holds the server: the session is read-only until it ends.
      this.sandbox.checkChangeable();
      await run(id, ...args);
    });
  }

  private fail(id: number, event: string, error: unknown): void {
    const [status, message] = sftpStatusOf(event, error, this.log);
    try {
      this.sftp.status(id, status, message);
    } catch {
      // the channel is gone
    }
  }

  private async open(id: number, filename: string, flags: number, attrs: Attributes): Promise<void> {
    const where = sessionPath(filename);
    const append = (flags & OPEN_MODE.APPEND) !== 0;
    const reading = (flags & OPEN_MODE.READ) !== 0;
    const writing = (flags & OPEN_MODE.WRITE) !== 0 || append;
    if (!reading && !writing) throw new Refusal(STATUS_CODE.FAILURE, "open for neither reading nor writing");
    if (writing && !this.mayWrite) throw readOnly();
    const file: OpenFile = { kind: "file", append, appending: Promise.resolve() };
    try {
      if (writing) {
        // Each file open for writing shares the server's room with every other write in flight.
        file.budget = await this.disk?.budget();
        const location = await this.sandbox.resolve(where);
        if (location.stats) {
          if (flags & OPEN_MODE.CREAT && flags & OPEN_MODE.EXCL) {
            throw sandboxErrors.exists(where, "already exists");
          }
        } else if (!(flags & OPEN_MODE.CREAT)) {
          throw sandboxErrors.notFound(where);
        }
        file.writer = await this.sandbox.openResolvedWrite(location, where, {
          truncate: (flags & OPEN_MODE.TRUNC) !== 0,
          mode: creationMode(attrs),
        });
        file.written = { path: where, bytes: 0 };
      }
      if (reading) {
        file.reader = await this.sandbox.openRead(where);
        // Read-write is two handles on one path: they must be the same file.
        if (file.writer) {
          const [a, b] = await Promise.all([file.reader.stat(), file.writer.stat()]);
          if (a.dev !== b.dev || a.ino !== b.ino) {
            throw sandboxErrors.illegal(where, "changed while it was opened");
          }
        }
      }
    } catch (error) {
      await closeFile(file);
      throw error;
    }
    this.sftp.handle(id, this.handles.register(file));
  }

  private async read(id: number, raw: Buffer, offset: number, length: number): Promise<void> {
    const { reader } = this.handles.file(raw);
    if (!reader) throw new Refusal(STATUS_CODE.PERMISSION_DENIED, "the file is not open for reading");
    const size = Math.min(length, maxReadLength);
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await reader.read(buffer, 0, size, offset);
    if (bytesRead === 0) this.sftp.status(id, STATUS_CODE.EOF);
    else this.sftp.data(id, buffer.subarray(0, bytesRead));
  }

  private async write(id: number, raw: Buffer, offset: number, data: Buffer): Promise<void> {
    const file = this.handles.file(raw);
    const { writer } = file;
    if (!writer) throw new Refusal(STATUS_CODE.PERMISSION_DENIED, "the file is not open for writing");
    // A file opened before a move began is held to it too.
    this.sandbox.checkChangeable();
    // Every byte written counts (an overwrite too): a client that goes on is stopped at the limit.
    file.budget?.take(data.length);
    if (file.written) file.written.bytes += data.length;
    if (file.append) {
      const done = file.appending.then(async () => writeAll(writer, data, (await writer.stat()).size));
      file.appending = done.catch(() => {});
      await done;
    } else {
      await writeAll(writer, data, offset);
    }
    this.sftp.status(id, STATUS_CODE.OK);
  }

  private async fstat(id: number, raw: Buffer): Promise<void> {
    const handle = this.handles.get(raw);
    const stats =
      handle.kind === "folder"
        ? await handle.reader.stat()
        : await ((handle.reader ?? handle.writer) as FileHandle).stat();
    this.sftp.attrs(id, attrsOf(stats));
  }

  /**
   * Size and times are applied through the open handle. Permissions and
   * owners are not: files stay as the daemon makes them, readable and
   * writable by the game server (`put -p` sends the uploader's own mode).
   */
  private async fsetstat(id: number, raw: Buffer, attrs: Attributes): Promise<void> {
    const handle = this.handles.get(raw);
    if (handle.kind === "file") {
      if (typeof attrs.size === "number") {
        if (!handle.writer)
          throw new Refusal(STATUS_CODE.PERMISSION_DENIED, "the file is not open for writing");
        this.sandbox.checkChangeable();
        await handle.writer.truncate(attrs.size);
        this.disk?.forget();
      }
      if (typeof attrs.mtime === "number" && typeof attrs.atime === "number") {
        await ((handle.writer ?? handle.reader) as FileHandle).utimes(attrs.atime, attrs.mtime);
      }
    }
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** SETSTAT by path: times (and size) of a regular file, through a handle the sandbox opens; see fsetstat. */
  private async setstat(id: number, p: string, attrs: Attributes): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where);
    if (!location.stats) throw sandboxErrors.notFound(where);
    const times = typeof attrs.mtime === "number" && typeof attrs.atime === "number";
    const size = typeof attrs.size === "number";
    if (location.stats.isFile() && (times || size)) {
      const handle = size
        ? await this.sandbox.openResolvedWrite(location, where, { truncate: false })
        : await this.sandbox.openResolvedRead(location, where);
      try {
        if (size) {
          await handle.truncate(attrs.size);
          this.disk?.forget();
        }
        if (times) await handle.utimes(attrs.atime, attrs.mtime);
      } finally {
        await handle.close();
      }
    }
    this.sftp.status(id, STATUS_CODE.OK);
  }

  private async close(id: number, raw: Buffer): Promise<void> {
    const handle = this.handles.take(raw);
    if (handle.kind === "folder") await handle.reader.close();
    else await this.closeWritten(handle);
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** Closes a file; one opened for writing is one `file.write` in the activity log, however many writes it took. */
  private async closeWritten(file: OpenFile): Promise<void> {
    await closeFile(file);
    if (file.written) this.record("file.write", file.written.path, { bytes: file.written.bytes });
  }

  private async opendir(id: number, folder: string): Promise<void> {
    const reader = await FolderReader.open(this.sandbox, sessionPath(folder));
    this.sftp.handle(id, this.handles.register({ kind: "folder", reader }));
  }

  private async readdir(id: number, raw: Buffer): Promise<void> {
    const handle = this.handles.get(raw);
    if (handle.kind !== "folder") throw new Refusal(STATUS_CODE.FAILURE, "not a folder handle");
    const entries = await handle.reader.next(namesPerBatch);
    if (!entries) {
      this.sftp.status(id, STATUS_CODE.EOF);
      return;
    }
    this.sftp.name(
      id,
      entries.map(({ name, stats }) => ({
        filename: name,
        longname: longNameOf(name, stats),
        attrs: attrsOf(stats),
      })),
    );
  }

  private async stat(id: number, p: string, follow: boolean): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where, { followFinal: follow });
    if (!location.stats) throw sandboxErrors.notFound(where);
    this.sftp.attrs(id, attrsOf(location.stats));
  }

  /** The canonical form of a path, symlinks inside the folder resolved ("/" is the folder). */
  private async realpath(id: number, p: string): Promise<void> {
    const location = await this.sandbox.resolve(sessionPath(p));
    const name = `/${location.relative}`;
    this.sftp.name(id, [{ filename: name, longname: name, attrs: {} as Attributes }]);
  }

  private async readlink(id: number, p: string): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where, { followFinal: false });
    if (!location.stats) throw sandboxErrors.notFound(where);
    if (!location.stats.isSymbolicLink()) throw new Refusal(STATUS_CODE.FAILURE, "not a symlink");
    const target = await fsp.readlink(location.path);
    this.sftp.name(id, [{ filename: target, longname: target, attrs: {} as Attributes }]);
  }

  /** REMOVE is for files and links; a folder needs RMDIR. */
  private async remove(id: number, p: string): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where, { followFinal: false });
    if (!location.stats) throw sandboxErrors.notFound(where);
    if (location.stats.isDirectory()) throw new Refusal(STATUS_CODE.FAILURE, "is a folder: use rmdir");
    await this.sandbox.remove(where);
    // Room made: a server stopped at its limit may start again right away.
    this.disk?.forget();
    this.record("file.delete", where);
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /**
   * Removes an empty folder only. The reference removes recursively; here
   * RMDIR means what it means everywhere else (rmdir(2), OpenSSH's server),
   * so a mistyped `rmdir` cannot wipe a world. Clients that delete a tree
   * empty it first, as they must with any other SFTP server.
   */
  private async rmdir(id: number, p: string): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where, { followFinal: false });
    if (!location.stats) throw sandboxErrors.notFound(where);
    if (location.relative === "") throw sandboxErrors.illegal(where, "is the server folder itself");
    if (!location.stats.isDirectory()) throw new Refusal(STATUS_CODE.FAILURE, "not a folder");
    // Through the sandbox (an empty folder only, without `recursive`): a protected one stays.
    await this.sandbox.remove(where);
    this.disk?.forget();
    this.record("file.delete", where, { folder: true });
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** Makes one folder; its parent must exist (SFTP's MKDIR is not `mkdir -p`). */
  private async mkdir(id: number, p: string): Promise<void> {
    const where = sessionPath(p);
    const location = await this.sandbox.resolve(where, { followFinal: false });
    if (location.stats) throw sandboxErrors.exists(where, "already exists");
    const parent = await this.sandbox.resolve(path.posix.dirname(where));
    if (!parent.stats) throw sandboxErrors.notFound(path.posix.dirname(where));
    if (!parent.stats.isDirectory()) throw new Refusal(STATUS_CODE.FAILURE, "the parent is not a folder");
    // Folders take room too: a client making them by the million is held to the limit.
    await this.made(newFolderBytes, () => this.sandbox.mkdirp(where));
    this.record("file.mkdir", where);
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** SFTP v3 rename never replaces: an existing target is refused (as OpenSSH's server does). */
  private async rename(id: number, from: string, to: string): Promise<void> {
    const target = sessionPath(to);
    if ((await this.sandbox.resolve(target, { followFinal: false })).stats) {
      throw sandboxErrors.exists(target, "already exists");
    }
    await this.sandbox.rename(sessionPath(from), target);
    this.record("file.rename", sessionPath(from), { to: target });
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** Links are made by the sandbox, which refuses any target that leads out of the folder. */
  private async symlink(id: number, link: string, target: string): Promise<void> {
    // A link's size is its target's length (what du counts).
    await this.made(Buffer.byteLength(target), () => this.sandbox.symlink(target, sessionPath(link)));
    this.record("file.symlink", sessionPath(link), { target });
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /** Makes an entry (a folder, a link) within the server's disk limit, when it has one. */
  private made<T>(bytes: number, make: () => Promise<T>): Promise<T> {
    return this.disk ? this.disk.reserve(bytes, make) : make();
  }

  private async closeAll(): Promise<void> {
    const open = this.handles.drain();
    await Promise.all(open.map((h) => (h.kind === "folder" ? h.reader.close() : this.closeWritten(h))));
  }
}
