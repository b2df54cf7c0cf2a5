import fsp from "node:fs/promises";
import { ApiError } from "../../errors.ts";
import type { DiskBudget } from "../servers/disk-ledger.ts";

/**
 * How many times its own size an archive may unpack to, by default; a node
 * sets OUTPOST_EXTRACT_MAX_RATIO to change it. Real archives (game files,
 * mod packs, worlds) stay well under it; a zip bomb does not.
 */
const defaultRatio = 200;
/** Below this, any archive may unpack (a tiny archive of a few big sparse-ish files is fine). */
const floorBytes = 64 * 1024 ** 2;

export interface BudgetOptions {
  /** The archive's size, when known (a download streamed as it arrives has none). */
  archiveBytes?: number;
  /** The node's ratio (EngineOptions.extractMaxRatio), else defaultRatio; Infinity for the node's own backups. */
  ratio?: number;
  /** The server's disk limit (disk-quota.ts), counted with the rest. */
  disk?: DiskBudget;
}

export const extractErrors = {
  tooLarge: (max: number) =>
    new ApiError(
      400,
      "ErrArchiveTooLarge",
      "the archive unpacks to more than ${max} bytes, more than this node allows for its size",
      { max },
    ),
  noSpace: (free: number) =>
    new ApiError(507, "ErrNoSpace", "the archive unpacks to more than the ${free} bytes free on the node", {
      free,
    }),
};

/**
 * The bytes one extraction may still write: at most `ratio` times the
 * archive's size (or the floor), and never more than the space free on the
 * node's disk when it began, nor past the server's disk limit.
 */
export class ExtractBudget {
  private written = 0;

  private constructor(
    private readonly maxByRatio: number,
    private readonly free: number,
    private readonly disk?: DiskBudget,
  ) {}

  static async of(folder: string, options: BudgetOptions = {}): Promise<ExtractBudget> {
    const ratio = options.ratio ?? defaultRatio;
    const byRatio =
      options.archiveBytes === undefined || ratio === Number.POSITIVE_INFINITY
        ? Number.POSITIVE_INFINITY
        : Math.max(floorBytes, Math.ceil(options.archiveBytes * ratio));
    const stats = await fsp.statfs(folder).catch(() => undefined);
    const free = stats ? stats.bavail * stats.bsize : Number.POSITIVE_INFINITY;
    return new ExtractBudget(byRatio, free, options.disk);
  }

  /** Counts `bytes` more; throws once the extraction would go over either bound. */
  take(bytes: number): void {
    this.written += bytes;
    if (this.written > this.maxByRatio) throw extractErrors.tooLarge(this.maxByRatio);
    if (this.written > this.free) throw extractErrors.noSpace(this.free);
    this.disk?.take(bytes);
  }
}
