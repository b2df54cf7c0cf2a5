import type { FileHandle } from "node:fs/promises";
import type { Attributes } from "ssh2";
import type { DiskBudget } from "../servers/disk-ledger.ts";
import type { FolderReader } from "./folder-reader.ts";
import { STATUS_CODE } from "./sftp-codes.ts";
import { Refusal } from "./sftp-status.ts";

/** Files and folders one session may hold open (each is a descriptor of the node's process). */
const maxOpenHandles = 256;

export interface OpenFile {
  kind: "file";
  reader?: FileHandle;
  writer?: FileHandle;
  /** SSH_FXF_APPEND: every write goes to the end, whatever offset it names. */
  append: boolean;
  /** Appends one after the other (each needs the size the previous one left). */
  appending: Promise<unknown>;
  /** What writes through it may take of the server's room under its disk limit; ended at close. */
  budget?: DiskBudget;
  /** For a file open for writing: its path and the bytes written, told to the activity log at close. */
  written?: { path: string; bytes: number };
}

export interface OpenFolder {
  kind: "folder";
  reader: FolderReader;
}

export type Handle = OpenFile | OpenFolder;

/** A session's open files and folders, by the 4-byte handle its client names them with. */
export class HandleTable {
  private readonly handles = new Map<number, Handle>();
  private nextHandle = 1;

  register(handle: Handle): Buffer {
    if (this.handles.size >= maxOpenHandles) {
      void (handle.kind === "folder" ? handle.reader.close() : closeFile(handle));
      throw new Refusal(STATUS_CODE.FAILURE, `no more than ${maxOpenHandles} open files per session`);
    }
    const number = this.nextHandle++;
    this.handles.set(number, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(number);
    return buffer;
  }

  get(raw: Buffer): Handle {
    const handle = raw.length === 4 ? this.handles.get(raw.readUInt32BE()) : undefined;
    if (!handle) throw new Refusal(STATUS_CODE.FAILURE, "unknown handle");
    return handle;
  }

  file(raw: Buffer): OpenFile {
    const handle = this.get(raw);
    if (handle.kind !== "file") throw new Refusal(STATUS_CODE.FAILURE, "not a file handle");
    return handle;
  }

  /** The handle, no longer open to the client (CLOSE). */
  take(raw: Buffer): Handle {
    const handle = this.get(raw);
    this.handles.delete(raw.readUInt32BE());
    return handle;
  }

  /** Every handle still open, the table emptied (the channel ended). */
  drain(): Handle[] {
    const open = [...this.handles.values()];
    this.handles.clear();
    return open;
  }
}

/** Mode of a created file: what the client asks (at least owner read/write), else 0644. */
export function creationMode(attrs: Attributes | undefined): number {
  return typeof attrs?.mode === "number" ? (attrs.mode & 0o777) | 0o600 : 0o644;
}

export async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

export async function closeFile(file: OpenFile): Promise<void> {
  await file.appending;
  await Promise.all([file.reader?.close(), file.writer?.close()].map((p) => p?.catch(() => {})));
  // What it wrote stays on disk.
  file.budget?.end(true);
}
