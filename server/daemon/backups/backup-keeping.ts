import fs from "node:fs/promises";
import path from "node:path";
import { Value } from "typebox/value";
import { BackupPolicy, type NodeBackups } from "../../contract/node/backup-wire.ts";
import { ApiError } from "../../errors.ts";
import { privateFileMode } from "../../secrets/private-files.ts";
import { readFacts, writeFacts } from "./backup-facts.ts";
import { backupsToPrune, keepEverything } from "./backup-policy.ts";

/** In a server's backups folder: its policy (a dot name is never a backup's). */
const policyFile = ".policy.json";

/**
 * What is kept of a server's backups: pins (in each backup's facts) and the
 * policy (beside them, so the node's tasks apply it while the panel is down).
 */
export class BackupKeeping {
  /** Servers being pruned: one pruning at a time per server. */
  private readonly pruning = new Map<string, Promise<string[]>>();

  constructor(
    private readonly backups: Pick<NodeBackups, "list" | "delete">,
    private readonly folder: (serverId: string) => string,
  ) {}

  async pin(serverId: string, fileName: string, pinned: boolean): Promise<void> {
    const listed = (await this.backups.list(serverId)).find((b) => b.fileName === fileName);
    if (listed?.state !== "ready") {
      throw new ApiError(404, "ErrBackupNotFound", "the node has no such finished backup");
    }
    const file = path.join(this.folder(serverId), fileName);
    // A backup from before facts were kept gets facts holding only what is known.
    const facts = (await readFacts(file)) ?? {
      sha256: "",
      size: listed.size,
      whileRunning: false,
      leftOut: 0,
      pinned: false,
      finishedAt: listed.createdAt ?? 0,
    };
    await writeFacts(file, { ...facts, pinned });
  }

  async policy(serverId: string): Promise<BackupPolicy> {
    try {
      const raw: unknown = JSON.parse(
        await fs.readFile(path.join(this.folder(serverId), policyFile), "utf8"),
      );
      return Value.Check(BackupPolicy, raw) ? raw : keepEverything;
    } catch {
      return keepEverything;
    }
  }

  async setPolicy(serverId: string, policy: BackupPolicy): Promise<string[]> {
    const folder = this.folder(serverId);
    await fs.mkdir(folder, { recursive: true });
    const temporary = path.join(folder, `${policyFile}.new`);
    await fs.writeFile(temporary, JSON.stringify(policy), { mode: privateFileMode });
    await fs.rename(temporary, path.join(folder, policyFile));
    return this.prune(serverId);
  }

  /** Applies the policy: removes what it does not keep; answers what it removed. */
  prune(serverId: string): Promise<string[]> {
    const previous = this.pruning.get(serverId) ?? Promise.resolve([]);
    const next = previous.catch(() => []).then(() => this.pruneNow(serverId));
    this.pruning.set(serverId, next);
    void next
      .finally(() => {
        if (this.pruning.get(serverId) === next) this.pruning.delete(serverId);
      })
      .catch(() => {});
    return next;
  }

  private async pruneNow(serverId: string): Promise<string[]> {
    const policy = await this.policy(serverId);
    const ready = (await this.backups.list(serverId)).filter((b) => b.state === "ready");
    const doomed = backupsToPrune(
      ready.map((b) => ({
        fileName: b.fileName,
        createdAt: b.createdAt ?? 0,
        size: b.size,
        pinned: b.pinned === true,
      })),
      policy,
    );
    const removed: string[] = [];
    for (const backup of doomed) {
      await this.backups.delete(serverId, backup.fileName);
      removed.push(backup.fileName);
    }
    return removed;
  }
}
