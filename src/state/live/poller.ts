// The polling fallback of an opened server (spec §4): while its socket cannot be had, one round of
// reads at once and then every POLL_MS; a hidden page skips its rounds (the next visible one reads).

export const POLL_MS = 5000;

export class Poller {
  private running = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly everyMs = POLL_MS,
  ) {}

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.next();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async next(): Promise<void> {
    if (!this.running) return;
    const hidden = typeof document !== "undefined" && document.hidden;
    if (!hidden) await this.round();
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.next(), this.everyMs);
  }
}
