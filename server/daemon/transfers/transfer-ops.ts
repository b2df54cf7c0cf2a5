import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Duplex } from "node:stream";
import {
  type NodeSpace,
  type NodeTransfers,
  signGrant,
  type TransferOffer,
  type TransferProgress,
  type TransferReceipt,
  type TransferSource,
  type TransferSourceAddress,
  transferLayout,
  verifyGrant,
} from "../../contract/node/transfer-wire.ts";
import { ApiError } from "../../errors.ts";
import { type BackupProgress, tarEntries } from "../backups/backup-archive.ts";
import { Sandbox } from "../sandbox/index.ts";
import { checkServerId } from "../servers/definition-file.ts";
import { newServerOwner } from "../servers/server-owner.ts";
import type { ServerStore } from "../servers/server-store.ts";
import type { TaskOps } from "../tasks/task-ops.ts";
import { needsJavaScriptArchiver } from "./moved-tree.ts";
import { systemTarSend, systemTarWorks, type TarView } from "./system-tar.ts";
import { acceptExport } from "./transfer-connection.ts";
import { transferErrors as errors } from "./transfer-errors.ts";
import { receiveArchive } from "./transfer-receive.ts";

/** How long a hold outlives its last export when the panel never says how the transfer ended. */
const holdAfterExportMs = 10 * 60_000;

interface Hold {
  release(): void;
  timer?: NodeJS.Timeout;
}

/**
 * Moving a server between nodes, both halves. As the source it holds a
 * stopped server busy ("transfer": start, install, backup and restore are
 * refused) and writes one uncompressed tar of `files/` (the server folder),
 * `backups/` (its backups folder) and `meta/` (its definition, tasks and
 * install marker) into the connection of whoever presents its grant
 * (transfer-connection.ts). As the target it fetches that tar into a staging
 * folder named like an interrupted restore's (so a crash leaves nothing the
 * next start does not remove), compares its size with what the source says
 * it sent, and only then moves the folders into place and loads the server.
 */
export class TransferOps implements NodeTransfers, TransferSource {
  /** Signs this node's grants; a restart voids the grants it gave (a transfer then fails whole). */
  private readonly key = randomBytes(32);
  private readonly holds = new Map<string, Hold>();
  /** Grants used, by id: one export each; the digest of what it sent once it ended. */
  private readonly exports = new Map<string, { serverId: string; digest?: TransferReceipt }>();
  private readonly pulling = new Map<string, TransferProgress>();

  constructor(
    private readonly store: ServerStore,
    private readonly serversDir: string,
    private readonly backupsDir: string,
    private readonly tasks: TaskOps,
  ) {}

  async offer(serverId: string): Promise<TransferOffer> {
    const server = this.store.get(serverId);
    if (this.holds.has(serverId)) throw errors.inProgress();
    const status = server.status();
    if (status.running || status.installing || server.instance.busy) throw errors.running();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold: Hold = { release };
    // Set synchronously by whileBusy before its first wait: no start can slip in after the check.
    const work = server.instance.whileBusy("transfer", () => held);
    work.catch(() => {});
    if (server.instance.busy !== "transfer") {
      release();
      await work.catch(() => {});
      throw errors.running();
    }
    this.holds.set(serverId, hold);
    hold.release = () => {
      clearTimeout(hold.timer);
      this.holds.delete(serverId);
      release();
    };
    this.releaseLater(hold);
    const bytes = await sizeOf([server.root, this.backupFolder(serverId)]);
    const { grant } = signGrant(this.key, serverId);
    return { grant, bytes };
  }

  async release(serverId: string): Promise<void> {
    this.holds.get(serverId)?.release();
  }

  exportTo(serverId: string, grant: string): (socket: Duplex) => Promise<void> {
    const claims = verifyGrant(this.key, grant, serverId);
    const hold = this.holds.get(serverId);
    if (!claims || !hold || this.exports.has(claims.jti)) throw errors.grant();
    const record: { serverId: string; digest?: TransferReceipt } = { serverId };
    this.exports.set(claims.jti, record);
    clearTimeout(hold.timer);
    return async (socket) => {
      try {
        await acceptExport(socket, async (connection) => {
          const bytes = await this.writeArchive(serverId, connection);
          // Recorded before the connection ends: the target asks for it once it has.
          record.digest = { bytes };
        });
        socket.end();
        // A target that never hangs up is not waited for.
        setTimeout(() => socket.destroy(), 30_000).unref();
      } catch (error) {
        socket.destroy();
        throw error;
      } finally {
        this.releaseLater(hold);
      }
    };
  }

  /** Writes the archive into the connection (GNU tar writing to it itself, where it can); answers its bytes. */
  private async writeArchive(serverId: string, socket: Duplex): Promise<number> {
    const server = this.store.get(serverId);
    const backups = this.backupFolder(serverId);
    const metaFile = (suffix: string) => path.join(this.serversDir, `${serverId}.${suffix}`);
    if (systemTarWorks() && !(await needsJavaScriptArchiver(server.root))) {
      const view: TarView = { readOnly: [[server.root, `/t/${transferLayout.files}`]] };
      const members: string[] = [transferLayout.files];
      if (await isFolder(backups)) {
        view.readOnly.push([backups, `/t/${transferLayout.backups}`]);
        members.push(transferLayout.backups);
      }
      for (const suffix of transferLayout.metaFiles) {
        const file = metaFile(suffix);
        if (await isFile(file)) view.readOnly.push([file, `/t/${transferLayout.meta}/server.${suffix}`]);
      }
      if (view.readOnly.length > members.length) members.push(transferLayout.meta);
      return systemTarSend(view, members, socket);
    }
    const progress: BackupProgress = { read: 0, written: 0 };
    const skipped = () => {};
    async function* blocks(): AsyncGenerator<Buffer> {
      // The plain sandbox, not the server's: files its denylist keeps from users move too.
      yield* tarEntries(new Sandbox(server.root), progress, skipped, `${transferLayout.files}/`);
      if (await isFolder(backups))
        yield* tarEntries(new Sandbox(backups), progress, skipped, `${transferLayout.backups}/`);
      for (const suffix of transferLayout.metaFiles) {
        const content = await fs.readFile(metaFile(suffix)).catch(() => undefined);
        if (content) yield* fileEntry(`${transferLayout.meta}/server.${suffix}`, content);
      }
      yield Buffer.alloc(1024);
    }
    let bytes = 0;
    const write = (block: Buffer) => {
      bytes += block.length;
      return writeOrClosed(socket, block);
    };
    for await (const block of blocks()) await write(block);
    // Padded to whole records as GNU tar pads: a tar reading the other end counts what it read
    // in records, and its count must be this one.
    await write(Buffer.alloc((tarRecord - (bytes % tarRecord)) % tarRecord));
    return bytes;
  }

  digest(serverId: string, grant: string): TransferReceipt {
    // Asked after the whole archive went, which may be long after the grant's minute.
    const claims = verifyGrant(this.key, grant, serverId, { allowExpired: true });
    const record = claims && this.exports.get(claims.jti);
    if (!record || record.serverId !== serverId) throw errors.grant();
    if (!record.digest) throw errors.notSent();
    this.exports.delete(claims.jti);
    return record.digest;
  }

  async progress(serverId: string): Promise<TransferProgress | undefined> {
    const progress = this.pulling.get(serverId);
    return progress && { ...progress };
  }

  async space(): Promise<NodeSpace> {
    const stats = await fs.statfs(this.serversDir);
    return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
  }

  async pull(serverId: string, source: TransferSourceAddress): Promise<TransferReceipt> {
    checkServerId(serverId);
    if (this.store.ids().includes(serverId))
      throw new ApiError(409, "ErrServerAlreadyExists", "server ${id} already exists", { id: serverId });
    if (this.pulling.has(serverId)) throw errors.inProgress();
    const progress: TransferProgress = { received: 0 };
    this.pulling.set(serverId, progress);
    // Dot names are never server ids; a crash leaves it to recoverInterruptedRestores at the next start.
    const staging = path.join(this.serversDir, `.${serverId}.restore-${randomBytes(6).toString("hex")}`);
    const placed: string[] = [];
    try {
      await fs.mkdir(staging, { mode: 0o700 });
      const receipt = await receiveArchive(source, staging, progress, () =>
        newServerOwner(this.serversDir, this.store.host.uidBlock),
      );
      for (const folder of [transferLayout.files, transferLayout.backups, transferLayout.meta])
        await fs.mkdir(path.join(staging, folder), { recursive: true });
      const meta = (suffix: string) => path.join(staging, transferLayout.meta, `server.${suffix}`);
      const definition = JSON.parse(await fs.readFile(meta("json"), "utf8").catch(() => "null"));
      if (!definition) throw errors.source("the archive holds no definition");
      // What a node that lost a server may have left under its name goes first.
      const root = path.join(this.serversDir, serverId);
      const backups = this.backupFolder(serverId);
      await fs.rm(root, { recursive: true, force: true });
      await fs.rm(backups, { recursive: true, force: true });
      placed.push(root);
      await fs.rename(path.join(staging, transferLayout.files), root);
      placed.push(backups);
      await fs.rename(path.join(staging, transferLayout.backups), backups);
      for (const suffix of ["cron", "task-runs", "not-installed"]) {
        const to = path.join(this.serversDir, `${serverId}.${suffix}`);
        placed.push(to);
        await fs.rename(meta(suffix), to).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        });
      }
      // Checks the definition and that it can run here, gives the folder to a uid of this node, loads it.
      await this.store.adopt(serverId, definition);
      // Its tasks start at activate(), after the switch: the source may still run them until then.
      return receipt;
    } catch (error) {
      for (const place of placed) await fs.rm(place, { recursive: true, force: true });
      throw error;
    } finally {
      this.pulling.delete(serverId);
      await fs.rm(staging, { recursive: true, force: true, maxRetries: 5 });
    }
  }

  async activate(serverId: string): Promise<void> {
    this.store.get(serverId);
    await this.tasks.adopt(serverId);
  }

  private backupFolder(serverId: string): string {
    return path.join(this.backupsDir, serverId);
  }

  private releaseLater(hold: Hold): void {
    clearTimeout(hold.timer);
    hold.timer = setTimeout(() => hold.release(), holdAfterExportMs);
    hold.timer.unref();
  }
}

async function isFolder(place: string): Promise<boolean> {
  return (await fs.stat(place).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(place: string): Promise<boolean> {
  return (await fs.lstat(place).catch(() => undefined))?.isFile() ?? false;
}

/**
 * About the bytes under the folders (for the move's progress): `du`'s count
 * (a tenth of a walk's time in Node on a game world's thousands of files),
 * or, where it fails, the regular files' sizes walked here. Missing folders count 0.
 */
async function sizeOf(folders: string[]): Promise<number> {
  const present: string[] = [];
  for (const folder of folders) if (await isFolder(folder)) present.push(folder);
  if (present.length === 0) return 0;
  const counted = await new Promise<number | undefined>((resolve) => {
    execFile("du", ["-s", "-b", "--", ...present], (error, stdout) => {
      if (error) return resolve(undefined);
      resolve(stdout.split("\n").reduce((sum, line) => sum + (Number.parseInt(line, 10) || 0), 0));
    });
  });
  if (counted !== undefined) return counted;
  let sum = 0;
  for (const folder of present) sum += await walkedSize(folder);
  return sum;
}

async function walkedSize(folder: string): Promise<number> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  // Side by side: the file system's thread pool stats several at once.
  const sizes = await Promise.all(
    entries.map(async (entry) => {
      const place = path.join(folder, entry.name);
      if (entry.isDirectory()) return walkedSize(place);
      if (entry.isFile()) return (await fs.lstat(place).catch(() => undefined))?.size ?? 0;
      return 0;
    }),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** GNU tar's record: 20 blocks of 512 bytes. */
const tarRecord = 10_240;

/** Writes, waiting while the connection is full; rejects once it has closed. */
function writeOrClosed(socket: Duplex, block: Buffer): Promise<void> {
  if (socket.destroyed) return Promise.reject(new Error("the target went away"));
  if (socket.write(block)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const drained = () => {
      socket.off("close", closed);
      resolve();
    };
    const closed = () => {
      socket.off("drain", drained);
      reject(new Error("the target went away"));
    };
    socket.once("drain", drained);
    socket.once("close", closed);
  });
}

/** One regular file's tar entry (header, content, padding). */
async function* fileEntry(name: string, content: Buffer): AsyncGenerator<Buffer> {
  const { Header } = await import("tar");
  const block = Buffer.alloc(512);
  new Header({ path: name, mode: 0o600, size: content.length, mtime: new Date(), type: "File" }).encode(
    block,
    0,
  );
  yield block;
  yield content;
  const padding = (512 - (content.length % 512)) % 512;
  if (padding) yield Buffer.alloc(padding);
}
