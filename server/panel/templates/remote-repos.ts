import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { localFolderOf } from "./repo-address.ts";
import { fetchRepo } from "./repo-fetch.ts";
import { type RepoTemplate, readRepo } from "./repo-reader.ts";

/** A remote repository is fetched again at most this often. */
export const refreshAfterMs = 5 * 60_000;
/** A repository that could not be fetched is not tried again for this long, unless asked to (Retry). */
export const retryFailedAfterMs = 2 * 60_000;

/** Why a non-administrator's repository could not be fetched, whatever the cause. */
const unreachable = "it could not be reached";

/**
 * The repositories added by URL: fetched into a cache (a host folder is read where it is), kept
 * for refreshAfterMs, one fetch at a time per repository; one that cannot be fetched answers
 * ErrRepoUnavailable with the reason, and is not asked again for retryFailedAfterMs.
 */
export class RemoteRepos {
  private readonly fetched = new Map<number, { at: number; templates: RepoTemplate[] }>();
  private readonly inFlight = new Map<number, Promise<RepoTemplate[]>>();
  private readonly failed = new Map<number, { at: number; reason: string }>();

  constructor(
    private readonly db: Db,
    private readonly cacheDir: string,
  ) {}

  /** The next read fetches the repository at once, even one that just failed (Retry). */
  retryNow(repoId: number): void {
    this.failed.delete(repoId);
  }

  /** Drops the cached copy of a removed repository. */
  async forget(repoId: number): Promise<void> {
    this.fetched.delete(repoId);
    await fs.rm(this.repoDir(repoId), { recursive: true, force: true });
  }

  /** The repository's templates, fetched when missing or older than refreshAfterMs; one fetch at a time per repo. */
  async templates(repoId: number): Promise<RepoTemplate[]> {
    const cached = this.fetched.get(repoId);
    if (cached && Date.now() - cached.at < refreshAfterMs) return cached.templates;
    // A source that just failed is not asked again on every page: the same answer, at once.
    const failure = this.failed.get(repoId);
    if (failure && Date.now() - failure.at < retryFailedAfterMs) {
      if (cached) return cached.templates;
      throw await this.unavailable(repoId, failure);
    }
    const running = this.inFlight.get(repoId);
    if (running) return running;
    const work = this.refresh(repoId, cached?.templates).finally(() => this.inFlight.delete(repoId));
    this.inFlight.set(repoId, work);
    return work;
  }

  private repoDir(repoId: number): string {
    return path.join(this.cacheDir, String(repoId));
  }

  private async refresh(repoId: number, stale: RepoTemplate[] | undefined): Promise<RepoTemplate[]> {
    const row = await this.db
      .selectFrom("template_repos")
      .selectAll()
      .where("id", "=", repoId)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, "ErrRepoNotFound", "no such repository");
    const folder = localFolderOf(row.url);
    try {
      // A host folder is read where it is, every time: what the administrator edits there shows at once.
      if (folder !== undefined) return await this.readFolder(folder);
      await fetchRepo(row.url, row.branch, this.repoDir(repoId), { publicOnly: row.by_admin !== 1 });
    } catch (err) {
      // A non-administrator's repository fails in one word: the reason would tell what answers
      // (or not) at an address they chose.
      const reason = row.by_admin === 1 ? (err as Error).message : unreachable;
      const failure = { at: Date.now(), reason };
      this.failed.set(repoId, failure);
      // A copy fetched before still serves while the source is away.
      if (stale) return stale;
      throw await this.unavailable(repoId, failure, row.name);
    }
    this.failed.delete(repoId);
    const { templates } = await readRepo(this.repoDir(repoId));
    this.fetched.set(repoId, { at: Date.now(), templates });
    return templates;
  }

  private async readFolder(folder: string): Promise<RepoTemplate[]> {
    const stat = await fs.stat(folder).catch(() => undefined);
    if (!stat?.isDirectory()) throw new Error(`${folder} is not a folder`);
    return (await readRepo(folder)).templates;
  }

  /** ErrRepoUnavailable with the reason and when the source was last tried (the screen offers Retry). */
  private async unavailable(
    repoId: number,
    failure: { at: number; reason: string },
    name?: string,
  ): Promise<ApiError> {
    const repo =
      name ??
      (await this.db.selectFrom("template_repos").select("name").where("id", "=", repoId).executeTakeFirst())
        ?.name ??
      String(repoId);
    return new ApiError(502, "ErrRepoUnavailable", "repository ${repo} could not be read: ${reason}", {
      repo,
      reason: failure.reason,
      triedAt: new Date(failure.at).toISOString(),
    });
  }
}
