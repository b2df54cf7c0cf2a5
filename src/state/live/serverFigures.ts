import { type Signal, signal } from "@preact/signals-react";
import type { ServerStats, ServerStatusAnswer, TransferState } from "../../api/servers";
import {
  type ServerStatus,
  serverInstalled,
  serverInstallFailure,
  serverStatus,
  setServerStatus,
} from "../serverStatus";

// An opened server's status and stats signals, fed by socket frames and by HTTP reads. A read sent
// before a newer frame arrived is stale and dropped (the frame is newer news).

export class ServerFigures {
  readonly status: Signal<ServerStatus>;
  readonly installed: Signal<boolean | undefined>;
  /** Why the last install failed, while not installed. */
  readonly installFailure: Signal<string | undefined>;
  readonly stats = signal<ServerStats | undefined>(undefined);
  /** A move to another node under way (or just ended), as the panel reports it. */
  readonly transfer = signal<TransferState | undefined>(undefined);

  /** Counts of status / stat frames. */
  private statusFrames = 0;
  private statFrames = 0;

  /** `alive`: false once the owner closed, so a late answer is dropped. */
  constructor(
    readonly id: string,
    private readonly alive: () => boolean = () => true,
  ) {
    this.status = serverStatus(id);
    this.installed = serverInstalled(id);
    this.installFailure = serverInstallFailure(id);
  }

  statusFrame(data: ServerStatusAnswer): void {
    this.statusFrames++;
    setServerStatus(this.id, data);
  }

  statFrame(data: ServerStats): void {
    this.statFrames++;
    this.stats.value = { cpu: Number(data.cpu) || 0, memory: Number(data.memory) || 0 };
  }

  async readStatus(read: () => Promise<ServerStatusAnswer>): Promise<void> {
    const seen = this.statusFrames;
    try {
      const answer = await read();
      if (this.alive() && seen === this.statusFrames) setServerStatus(this.id, answer);
    } catch {
      // next round
    }
  }

  async readStats(read: () => Promise<ServerStats>): Promise<void> {
    const seen = this.statFrames;
    try {
      const answer = await read();
      if (this.alive() && seen === this.statFrames) this.stats.value = answer;
    } catch {
      // next round
    }
  }
}
