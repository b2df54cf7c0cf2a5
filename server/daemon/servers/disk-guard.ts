import type { ServerInstance } from "../runtime/instance.ts";
import type { DiskLedger } from "./disk-ledger.ts";
import { diskLimitReached } from "./disk-quota.ts";
import type { StepRuns } from "./step-runs.ts";

/**
 * A server's disk limit as it acts on the server: no start or install over it, and a running
 * server (its process or its steps) found over it by the disk watcher is stopped.
 */
export class DiskGuard {
  /** Set when the disk watcher has told the running server to stop; a later check still over kills it. */
  private stoppingForDisk = false;

  constructor(
    private readonly instance: ServerInstance,
    private readonly disk: DiskLedger,
    private readonly stepRuns: StepRuns,
  ) {}

  /** A server whose folders hold more than its disk limit neither starts nor installs (until files are deleted). */
  async refuseOverLimit(action: "starting" | "installing"): Promise<void> {
    this.stoppingForDisk = false;
    const limitMiB = await this.disk.overLimit();
    if (limitMiB === undefined) return;
    this.instance.notice(action === "starting" ? "diskNotStarting" : "diskNotInstalling", {
      limit: limitMiB,
    });
    throw diskLimitReached(limitMiB);
  }

  /**
   * The disk watcher found the running server over its limit: it is told to
   * stop as by the stop action (killed after the grace period); if a later
   * check finds it still running and still over, it is killed then, so a
   * process that ignores the stop cannot go on writing for the whole grace.
   */
  overLimit(limitMiB: number): void {
    // Install steps are as much the server's writing as its process (a definition's commands).
    const steps = this.stepRuns.unaborted();
    if (steps.length > 0) {
      this.instance.notice("diskStoppingSteps", { limit: limitMiB });
      for (const run of steps) run.abort(diskLimitReached(limitMiB));
    }
    if (!this.instance.status().running) return;
    if (this.stoppingForDisk) {
      this.instance.notice("diskKilling", { limit: limitMiB });
      void this.instance.kill().catch(() => {});
      return;
    }
    this.stoppingForDisk = true;
    this.instance.notice("diskStopping", { limit: limitMiB });
    void this.instance.stop().catch(() => {});
  }
}
