import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../../errors.ts";
import type { CgroupLog } from "./driver.ts";
import { writeValue } from "./files.ts";

/**
 * What a node does when the kernel refuses a server's swap limit (no swap accounting). Without
 * swap on the host the memory limit holds all the same; with swap a server could swap without
 * bound, so its start is refused unless the administrator opted in (OUTPOST_ALLOW_UNLIMITED_SWAP=1).
 */
export interface SwapOptions {
  /** OUTPOST_ALLOW_UNLIMITED_SWAP=1: servers may run (and swap) without a swap limit. */
  allowUnlimited?: boolean;
  /** Where the host's SwapTotal is read (tests point it at a file of their own). */
  meminfo?: string;
}

/** The host's swap in kB (SwapTotal); undefined when it cannot be read, which counts as swap. */
export async function hostSwapKb(meminfo = "/proc/meminfo"): Promise<number | undefined> {
  const text = await fs.readFile(meminfo, "utf8").catch(() => "");
  const match = /^SwapTotal:\s*(\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** What a start of a server with a memory limit answers where its swap cannot be limited. */
export const swapNotLimitable = (reason: string): ApiError =>
  new ApiError(
    409,
    "ErrSwapNotLimited",
    "Servers with a memory limit cannot start on this node: the kernel refused their swap limit (${reason}) and the host has swap. Turn on swap accounting (cgroup v1: boot with swapaccount=1; cgroup v2: a kernel whose memory controller has memory.swap.max) or turn swap off (swapoff -a); or set OUTPOST_ALLOW_UNLIMITED_SWAP=1 and restart the node to let servers swap without a limit.",
    { reason },
  );

/**
 * One per driver (so per node start): decides on each refused swap limit, and tells the log once.
 * It also tells the log, once each, of the preferences (IO weight) the node could not set.
 */
export class SwapGuard {
  private told = false;
  private readonly skippedOnce = new Set<string>();

  constructor(
    private readonly options: SwapOptions = {},
    private readonly log: CgroupLog = { warn: () => {}, info: () => {} },
  ) {}

  /**
   * Writes a group's swap limit. Where the kernel refuses it, either the group is refused (`undo`
   * takes the half-made group back, the refusal is thrown) or it goes on without one.
   */
  async limit(dir: string, file: string, value: number, undo: () => Promise<void>): Promise<void> {
    try {
      await writeValue(dir, file, value);
    } catch (error) {
      await this.refused(path.join(dir, file), error).catch(async (refusal) => {
        // The refusal is what counts; a leftover group is retried at the next start or node start.
        await undo().catch(() => {});
        throw refusal;
      });
    }
  }

  /**
   * A limit that is a share, not a bound (IO weight), the node cannot set: servers run without it
   * (an unweighted share, never more than the host gives), and the log says so once per `what`.
   */
  skipped(what: string, reason: string): void {
    if (this.skippedOnce.has(what)) return;
    this.skippedOnce.add(what);
    this.log.warn(`servers run without their ${what}: ${reason}`);
  }

  /** The kernel refused `file`: throws the refusal, or lets the server go on without a swap limit. */
  async refused(file: string, error: unknown): Promise<void> {
    const reason = `${file}: ${error instanceof Error ? error.message : String(error)}`;
    const swapKb = await hostSwapKb(this.options.meminfo);
    const hasSwap = swapKb === undefined || swapKb > 0;
    if (hasSwap && !this.options.allowUnlimited) throw swapNotLimitable(reason);
    if (this.told) return;
    this.told = true;
    if (hasSwap) {
      this.log.warn(
        `servers may swap without bound (OUTPOST_ALLOW_UNLIMITED_SWAP=1): the kernel refuses their swap limit (${reason})`,
      );
    } else {
      this.log.info(`swap not limited, the host has none: the kernel refuses the swap limit (${reason})`);
    }
  }
}
