import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { Selectable } from "kysely";
import { type BackupView, backupNameMax } from "../contract/api/backups.ts";
import type {
  BackupAdoption,
  BackupEntryList,
  BackupPolicy,
  BackupReceipt,
  BackupState,
  BackupVerdict,
  NodeBackupView,
} from "../contract/node/backup-wire.ts";
import type { Db } from "../db/database.ts";
import type { BackupTable } from "../db/tables.ts";
import { ApiError, errors } from "../errors.ts";
import type { AlertEvent } from "./notifications/notifier.ts";
import { assertServerExists } from "./server-exists.ts";
import type { Servers } from "./servers.ts";

type Row = Selectable<BackupTable>;

const notFound = () => new ApiError(404, "ErrBackupNotFound", "no such backup");
const notReady = () => new ApiError(409, "ErrBackupInProgress", "this backup is not finished");

/**
 * The download's Content-Disposition: `<name>-<day>.tar.gz`, in plain ASCII
 * for every client and, when the name is not plain ASCII, as UTF-8 too
 * (RFC 6266 `filename*`, which browsers prefer). The reference sent the
 * node's `<uuid>.tar.gz`, which says nothing to whoever finds it later.
 */
export function downloadDisposition(row: { name: string; created_at: number }): string {
  const day = new Date(row.created_at).toISOString().slice(0, 10);
  const ascii = row.name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+|_+$/g, "") || "backup";
  const plain = `${ascii.slice(0, 80)}-${day}.tar.gz`;
  const full = `${row.name.replace(/[\\/:*?"<>|]+/g, "_")}-${day}.tar.gz`;
  if (full === plain) return `attachment; filename="${plain}"`;
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** What a new row holds before the node has told anything of its backup. */
const freshFacts = {
  while_running: 0,
  sha256: "",
  left_out: 0,
  pinned: 0,
  verified_at: 0,
  verified_ok: 0,
  verify_reason: "",
} satisfies Partial<Row>;

/** The facts a node reported of a finished backup, as row fields. */
function factsOf(found: NodeBackupView): Partial<Row> {
  return {
    while_running: found.whileRunning ? 1 : 0,
    sha256: found.sha256 ?? "",
    left_out: found.leftOut ?? 0,
    pinned: found.pinned ? 1 : 0,
  };
}

/**
 * A server's backups as the panel lists them. The panel records the id,
 * name and creation time the moment a backup is asked for; the node writes
 * the file in the background and is the one that knows when it is done, so
 * while a row says `creating` the list asks the node, and keeps what it
 * learns (ready with its size, or failed with the reason) in the row.
 */
export class Backups {
  constructor(
    private readonly db: Db,
    private readonly servers: Servers,
    /** Alerts: a backup the panel learns has failed (backup.failed). */
    private readonly notify: (event: AlertEvent) => void = () => {},
  ) {}

  /** Newest first (the reference answers unsorted and its UI sorts). */
  async list(serverId: string): Promise<BackupView[]> {
    const rows = await this.db
      .selectFrom("backups")
      .selectAll()
      .where("server_id", "=", serverId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    await assertServerExists(this.db, serverId);
    let known: Map<string, NodeBackupView> | undefined;
    try {
      const node = await this.servers.nodeOf(serverId);
      known = new Map((await node.backups.list(serverId)).map((b) => [b.fileName, b]));
    } catch {
      // A node that cannot be reached: the list answers with what the panel knows.
      return rows.map((r) => this.view(r));
    }
    return this.withProgress(serverId, await this.reconcile(serverId, rows, known), known);
  }

  /**
   * A server's tasks make and remove backups on the node, without the panel
   * (they run while it is down): a backup a task made is recorded here when
   * first seen, and a finished backup whose file the node no longer has (a
   * task's `keep` removed it) leaves the list. Newest first, as list sorts.
   */
  private async reconcile(serverId: string, rows: Row[], known: Map<string, NodeBackupView>): Promise<Row[]> {
    const recorded = new Set(rows.map((r) => r.file_name));
    const gone = rows.filter((r) => r.state === "ready" && !known.has(r.file_name));
    if (gone.length > 0) {
      await this.db
        .deleteFrom("backups")
        .where(
          "id",
          "in",
          gone.map((r) => r.id),
        )
        .where("state", "=", "ready")
        .execute();
    }
    const kept = rows.filter((r) => !gone.includes(r));
    const adopted: Row[] = [];
    for (const found of known.values()) {
      if (found.task === undefined || recorded.has(found.fileName) || found.state !== "ready") continue;
      const fields: Omit<Row, "id"> = {
        ...freshFacts,
        server_id: serverId,
        name: found.task.slice(0, backupNameMax),
        file_name: found.fileName,
        state: "ready",
        size: found.size,
        error: "",
        created_at: found.createdAt ?? Date.now(),
        ...factsOf(found),
      };
      const { id } = await this.db
        .insertInto("backups")
        .values(fields)
        .returning("id")
        .executeTakeFirstOrThrow();
      adopted.push({ id, ...fields });
    }
    if (adopted.length === 0) return kept;
    return [...kept, ...adopted].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }

  async get(serverId: string, backupId: number): Promise<BackupView> {
    const [view] = await this.withProgress(serverId, [await this.row(serverId, backupId)]);
    return view;
  }

  async create(serverId: string, rawName: string | undefined): Promise<BackupView> {
    const name = (rawName ?? "").trim();
    if (!name) throw errors.fieldRequired("name");
    if (name.length > backupNameMax) throw errors.fieldLength("name", 1, backupNameMax);
    if (/\p{Cc}/u.test(name)) {
      throw new ApiError(400, "ErrFieldMustBePrintable", "${field} must be printable", { field: "name" });
    }
    const node = await this.servers.nodeOf(serverId);
    const fileName = `${randomUUID()}.tar.gz`;
    // The node refuses a busy server before anything is recorded.
    await node.backups.create(serverId, fileName);
    const fields: Omit<Row, "id"> = {
      ...freshFacts,
      server_id: serverId,
      name,
      file_name: fileName,
      state: "creating",
      size: 0,
      error: "",
      created_at: Date.now(),
    };
    const { id } = await this.db
      .insertInto("backups")
      .values(fields)
      .returning("id")
      .executeTakeFirstOrThrow();
    return this.view({ id, ...fields });
  }

  /** The whole backup, or with `paths` only those files and folders of it (the node checks them). */
  async restore(serverId: string, backupId: number, paths?: string[]): Promise<void> {
    const row = await this.row(serverId, backupId);
    await (await this.servers.nodeOf(serverId)).backups.restore(serverId, row.file_name, paths);
  }

  /** The file on the node first, then the row: a node that cannot be reached keeps both. */
  async delete(serverId: string, backupId: number): Promise<void> {
    const row = await this.row(serverId, backupId);
    await (await this.servers.nodeOf(serverId)).backups.delete(serverId, row.file_name);
    await this.db.deleteFrom("backups").where("id", "=", row.id).execute();
  }

  /**
   * Reads the backup through on its node (size, SHA-256, archive) and keeps
   * the outcome in its row, which the list shows as its last verification.
   */
  async verify(serverId: string, backupId: number): Promise<BackupVerdict> {
    const row = await this.row(serverId, backupId);
    if (row.state !== "ready") throw notReady();
    const node = await this.servers.nodeOf(serverId);
    const verdict = await node.backups.verify(serverId, row.file_name);
    // One without a SHA-256 of ours (adopted from another panel) has the node's from its first pass.
    const sha256 =
      verdict.ok && !row.sha256
        ? ((await node.backups.list(serverId)).find((b) => b.fileName === row.file_name)?.sha256 ?? "")
        : row.sha256;
    await this.db
      .updateTable("backups")
      .set({
        verified_at: Date.now(),
        verified_ok: verdict.ok ? 1 : 0,
        verify_reason: verdict.reason ?? "",
        sha256,
      })
      .where("id", "=", row.id)
      .execute();
    return verdict;
  }

  /**
   * Brings a backup another panel made (the import of issue 40): `adopt` points at its object in
   * the bucket of the server's node, where it is, not yet verified here; `receive` streams its
   * file onto the node's disk, checked. The node lists it from then on. Answers its id; one
   * recorded before under that file name is answered as it is (a run cut short goes on).
   */
  async bring(
    serverId: string,
    fileName: string,
    name: string,
    how: { adopt: BackupAdoption } | { receive: Readable; receipt: BackupReceipt },
  ): Promise<{ id: number; size: number }> {
    await assertServerExists(this.db, serverId);
    const before = await this.db
      .selectFrom("backups")
      .select(["id", "size"])
      .where("server_id", "=", serverId)
      .where("file_name", "=", fileName)
      .executeTakeFirst();
    const node = await this.servers.nodeOf(serverId);
    const found =
      "adopt" in how
        ? await node.backups.adopt(serverId, fileName, how.adopt)
        : await node.backups.receive(serverId, fileName, how.receive, how.receipt);
    if (before) return before;
    const fields: Omit<Row, "id"> = {
      ...freshFacts,
      ...factsOf(found),
      server_id: serverId,
      name: name.slice(0, backupNameMax),
      file_name: fileName,
      state: "ready",
      size: found.size,
      error: "",
      created_at: found.createdAt ?? Date.now(),
    };
    const { id } = await this.db
      .insertInto("backups")
      .values(fields)
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id, size: found.size };
  }

  /** A folder's children inside a finished backup, read on its node from the archive as it streams. */
  async files(serverId: string, backupId: number, folder: string): Promise<BackupEntryList> {
    const row = await this.row(serverId, backupId);
    if (row.state !== "ready") throw notReady();
    return (await this.servers.nodeOf(serverId)).backups.files(serverId, row.file_name, folder);
  }

  /** Pins or unpins a finished backup: on its node first (where the policy is applied), then its row. */
  async pin(serverId: string, backupId: number, pinned: boolean): Promise<BackupView> {
    const row = await this.row(serverId, backupId);
    if (row.state !== "ready") throw notReady();
    await (await this.servers.nodeOf(serverId)).backups.pin(serverId, row.file_name, pinned);
    await this.db
      .updateTable("backups")
      .set({ pinned: pinned ? 1 : 0 })
      .where("id", "=", row.id)
      .execute();
    return this.view({ ...row, pinned: pinned ? 1 : 0 });
  }

  /** The policy lives beside the backups on the node, which applies it after each backup (a task's too). */
  async policy(serverId: string): Promise<BackupPolicy> {
    await assertServerExists(this.db, serverId);
    return (await this.servers.nodeOf(serverId)).backups.policy(serverId);
  }

  /** Keeps the policy and applies it at once; the rows of the backups it removed go. */
  async setPolicy(serverId: string, policy: BackupPolicy): Promise<BackupPolicy> {
    await assertServerExists(this.db, serverId);
    const removed = await (await this.servers.nodeOf(serverId)).backups.setPolicy(serverId, policy);
    if (removed.length > 0) {
      await this.db
        .deleteFrom("backups")
        .where("server_id", "=", serverId)
        .where("file_name", "in", removed)
        .execute();
    }
    return policy;
  }

  async download(
    serverId: string,
    backupId: number,
  ): Promise<{ disposition: string; size: number; body: Readable }> {
    const row = await this.row(serverId, backupId);
    const bytes = await (await this.servers.nodeOf(serverId)).backups.download(serverId, row.file_name);
    return { disposition: downloadDisposition(row), ...bytes };
  }

  /** A backup of this server (an id of another server's backup is not found here). */
  private async row(serverId: string, backupId: number): Promise<Row> {
    const row = await this.db
      .selectFrom("backups")
      .selectAll()
      .where("id", "=", backupId)
      .where("server_id", "=", serverId)
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /**
   * Asks the node about rows still being created and keeps the outcome. A
   * node that cannot be reached leaves them as they were: the list still
   * answers with what the panel knows.
   */
  private async withProgress(
    serverId: string,
    rows: Row[],
    listed?: Map<string, NodeBackupView>,
  ): Promise<BackupView[]> {
    const pending = rows.filter((r) => r.state === "creating");
    if (pending.length === 0) return rows.map((r) => this.view(r));
    let known: Map<string, NodeBackupView>;
    try {
      const node = await this.servers.nodeOf(serverId);
      known = listed ?? new Map((await node.backups.list(serverId)).map((b) => [b.fileName, b]));
    } catch {
      return rows.map((r) => this.view(r));
    }
    const written = new Map<number, number>();
    for (const row of pending) {
      const found = known.get(row.file_name);
      if (found?.state === "creating") {
        written.set(row.id, found.size);
        continue;
      }
      const next: Partial<Row> = found
        ? { state: found.state, size: found.size, error: found.error ?? "", ...factsOf(found) }
        : { state: "failed", size: 0, error: "the node has no such backup" };
      const changed = await this.db
        .updateTable("backups")
        .set(next)
        .where("id", "=", row.id)
        .where("state", "=", "creating")
        .executeTakeFirst();
      // Told by whichever request (of whichever panel) saw the failure first.
      if (next.state === "failed" && Number(changed.numUpdatedRows) > 0)
        this.notify({
          type: "backup.failed",
          serverId,
          detail: `${row.name}: ${next.error}`,
          key: `${row.id}`,
        });
      Object.assign(row, next);
    }
    return rows.map((r) => this.view(r, written.get(r.id)));
  }

  private view(row: Row, bytesWritten?: number): BackupView {
    const view: BackupView = {
      id: row.id,
      name: row.name,
      fileName: row.file_name,
      createdAt: new Date(row.created_at).toISOString(),
      size: row.state === "ready" ? row.size : 0,
      state: row.state as BackupState,
    };
    if (row.state === "creating") view.bytesWritten = bytesWritten ?? 0;
    if (row.state === "failed" && row.error) view.error = row.error;
    if (row.state === "ready") {
      view.whileRunning = row.while_running === 1;
      if (row.sha256) view.sha256 = row.sha256;
      view.leftOut = row.left_out;
      view.pinned = row.pinned === 1;
      if (row.verified_at > 0) {
        view.lastVerification = {
          at: new Date(row.verified_at).toISOString(),
          ok: row.verified_ok === 1,
          ...(row.verify_reason ? { reason: row.verify_reason } : {}),
        };
      }
    }
    return view;
  }
}
