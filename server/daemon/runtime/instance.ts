import {
  type NodeMessageCode,
  type NodeMessageRest,
  nodeLine,
} from "../../contract/node/console-messages.ts";
import { ApiError, errorText } from "../../errors.ts";
import { QueryEchoFilter } from "../query/query-echo.ts";
import { ConsoleBuffer } from "./console-buffer.ts";
import { type ExitResult, ProcessGroup, type SpawnSpec } from "./process-group.ts";
import { CgroupStats, type ProcessStats, TreeStats } from "./tree-stats.ts";

/** How to run a server, already rendered from its definition (command chosen, variables substituted). */
export interface RunPlan extends SpawnSpec {
  /** Text written to the input to stop it; used when stopSignal is 0. */
  stopText: string;
  /** Signal number that stops it; wins over stopText when non-zero (reference §5.3). */
  stopSignal: number;
  expectedExitCode: number;
  autorecover: boolean;
  autorestart: boolean;
  /** The memory limit the cgroup holds, for the message when the server is killed for it. */
  memoryLimitMiB?: number;
  /**
   * Starts the server somewhere other than as a process group on this host
   * (a container); absent for the host environment.
   */
  launch?: (onOutput: (data: Buffer) => void) => Promise<ServerProcess>;
}

/** A started server process, wherever it runs: what the state machine needs of it. */
export interface ServerProcess {
  readonly exited: Promise<ExitResult>;
  readonly running: boolean;
  writeLine(line: string): boolean;
  signal(signal: NodeJS.Signals | number): void;
  sample(): Promise<ProcessStats>;
  /** Resolves once the program runs under its limits (the host's cgroup gate). */
  readonly ready?: Promise<void>;
}

/** The host environment: a process group here, its stats read from its cgroup (or /proc without one). */
function hostProcess(plan: RunPlan, onOutput: (data: Buffer) => void): ServerProcess {
  const group = new ProcessGroup(plan, onOutput);
  const stats = plan.cgroup ? new CgroupStats(plan.cgroup) : group.pid ? new TreeStats(group.pid) : undefined;
  return Object.assign(group, { sample: async () => stats?.sample() ?? { cpu: 0, memory: 0 } });
}

export interface InstanceStatus {
  running: boolean;
  installing: boolean;
  /** Set while stopped after a crash (an exit nobody asked for, not the expected code): alerts tell it apart. */
  crashed?: boolean;
}

export interface InstanceHooks {
  /** Renders the run plan at each start, so definition changes apply without a reload. */
  plan(): Promise<RunPlan>;
  /** run.pre before start; run.post after exit (with success and exitCode). */
  pre(): Promise<void>;
  post(result: { success: boolean; exitCode: number }): Promise<void>;
  onStatus?(status: InstanceStatus): void;
  /** The process ended; `requested` when a stop or kill asked for it (tasks tell a crash from a stop). */
  onExit?(exit: { success: boolean; requested: boolean }): void;
}

export interface InstanceOptions {
  /** Seconds a stopping server gets before it is killed. */
  stopGraceMs: number;
  /** Crashes in a row after which autorecover gives up. */
  crashLimit: number;
  /** Delay before an automatic restart. */
  restartDelayMs: number;
  consoleBytes: number;
}

export const defaultInstanceOptions: InstanceOptions = {
  stopGraceMs: 60_000,
  crashLimit: 3,
  restartDelayMs: 1000,
  consoleBytes: 50 * 1024,
};

const running = () => new ApiError(409, "ErrServerRunning", "the server is running or busy");
const offline = () => new ApiError(409, "ErrServerOffline", "the server is not running");

/**
 * One game server's life on a node: idle → (installing) → running → idle,
 * with stop/kill ending the whole process group, exit classified as graceful
 * or crash, and automatic restarts by the definition's flags.
 */
export class ServerInstance {
  readonly console: ConsoleBuffer;
  /** Leaves out of the console what the game logs because the node asked it for its players. */
  readonly queryEcho = new QueryEchoFilter();
  private process?: ServerProcess;
  /** The plan the running process was started with: stop uses its stop text or signal. */
  private current?: RunPlan;
  /** Settles once the running process's exit has been handled (its cgroup removed, post steps run). */
  private finished?: Promise<void>;
  private installing = false;
  private busyReason?: string;
  private stopRequested = false;
  private crashedLast = false;
  private crashes = 0;
  private restartTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly id: string,
    private readonly hooks: InstanceHooks,
    private readonly options: InstanceOptions = defaultInstanceOptions,
  ) {
    this.console = new ConsoleBuffer(options.consoleBytes);
  }

  status(): InstanceStatus {
    const running = this.process?.running ?? false;
    return {
      running,
      installing: this.installing,
      ...(this.crashedLast && !running ? { crashed: true } : {}),
    };
  }

  /** What holds the server busy besides running or installing ("starting", "backup", "restore"). */
  get busy(): string | undefined {
    return this.busyReason;
  }

  get crashCount(): number {
    return this.crashes;
  }

  /** One of the node's own lines (console-messages.ts), into this server's console. */
  notice<C extends NodeMessageCode>(code: C, ...args: NodeMessageRest<C>): void {
    this.console.write(nodeLine(code, ...args));
  }

  /** Starts the process; resolves once it has been spawned. */
  async start(): Promise<void> {
    this.assertIdle();
    clearTimeout(this.restartTimer);
    this.busyReason = "starting";
    try {
      await this.hooks.pre();
      const plan = await this.hooks.plan();
      this.notice("starting");
      this.stopRequested = false;
      this.crashedLast = false;
      const onOutput = (data: Buffer) => this.console.write(this.queryEcho.filter(data));
      const group = plan.launch ? await plan.launch(onOutput) : hostProcess(plan, onOutput);
      this.process = group;
      this.current = plan;
      this.emit();
      this.finished = group.exited.then((result) => this.exited(group, plan, result));
      await group.ready?.catch((err) => this.notice("limitsFailed", { reason: err.message }));
    } finally {
      this.busyReason = undefined;
    }
  }

  /** Asks the server to stop; with `wait`, resolves when it is gone (killed after the grace period). */
  async stop(wait = false): Promise<void> {
    clearTimeout(this.restartTimer);
    const group = this.process;
    if (!group?.running) return;
    this.stopRequested = true;
    const plan = this.current;
    if (plan && plan.stopSignal !== 0) group.signal(plan.stopSignal);
    else if (!plan?.stopText || !group.writeLine(plan.stopText)) group.signal("SIGTERM");
    this.notice("stopRequested");
    const timer = setTimeout(() => {
      this.notice("stopTimeout");
      group.signal("SIGKILL");
    }, this.options.stopGraceMs);
    timer.unref();
    const done = (this.finished ?? group.exited).finally(() => clearTimeout(timer));
    if (wait) await done;
  }

  async kill(): Promise<void> {
    clearTimeout(this.restartTimer);
    const group = this.process;
    if (!group?.running) return;
    this.stopRequested = true;
    group.signal("SIGKILL");
    await (this.finished ?? group.exited);
  }

  /** Runs the install steps with the server marked installing. */
  async install(steps: () => Promise<void>): Promise<void> {
    this.assertIdle();
    this.installing = true;
    this.emit();
    this.notice("installing");
    try {
      await steps();
      this.notice("installed");
    } catch (err) {
      this.notice("installFailed", { reason: errorText(err) });
      throw err;
    } finally {
      this.installing = false;
      this.emit();
    }
  }

  /** Holds the server idle while `work` runs (backup, restore); start and install are refused meanwhile. */
  async whileBusy<T>(reason: string, work: () => Promise<T>): Promise<T> {
    this.assertIdle();
    this.busyReason = reason;
    try {
      return await work();
    } finally {
      this.busyReason = undefined;
    }
  }

  sendCommand(line: string): void {
    if (!this.process?.writeLine(line)) throw offline();
  }

  async sampleStats(): Promise<ProcessStats> {
    if (!this.process?.running) return { cpu: 0, memory: 0 };
    return this.process.sample();
  }

  /** Stops the server for good (node shutdown or deletion). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    await this.stop(true);
  }

  private assertIdle(): void {
    if (this.busyReason === "backup" || this.busyReason === "restore") {
      throw new ApiError(409, "ErrBackupInProgress", "a backup or restore is in progress");
    }
    if (this.process?.running || this.installing || this.busyReason) throw running();
  }

  private async exited(group: ServerProcess, plan: RunPlan, result: ExitResult): Promise<void> {
    // Whatever the leader left behind in its group goes with it (and in its cgroup, what left the group).
    group.signal("SIGKILL");
    const outOfMemory = plan.cgroup ? (await plan.cgroup.oomKills().catch(() => 0)) > 0 : false;
    await plan.cgroup?.remove().catch((err) => this.notice("cgroupRemoveFailed", { reason: err.message }));
    const exitCode = result.code ?? -1;
    const success = !outOfMemory && result.signal === null && exitCode === plan.expectedExitCode;
    if (outOfMemory) {
      if (plan.memoryLimitMiB) this.notice("memoryKilledAt", { mib: plan.memoryLimitMiB });
      else this.notice("memoryKilled");
    } else if (result.signal) {
      this.notice("signalled", { signal: result.signal });
    } else {
      this.notice(success ? "exited" : "crashed", { code: exitCode });
    }
    // Known before the status goes out, so the frame that says "stopped" also says why.
    this.crashedLast = !success && !this.stopRequested;
    this.emit();
    this.hooks.onExit?.({ success, requested: this.stopRequested });
    await this.hooks
      .post({ success, exitCode })
      .catch((err) => this.notice("postFailed", { reason: errorText(err) }));
    if (this.closed || this.stopRequested) return;
    if (success) {
      this.crashes = 0;
      if (plan.autorestart) this.scheduleRestart(() => this.notice("restartAfterExit"));
      return;
    }
    if (!plan.autorecover) return;
    if (this.crashes >= this.options.crashLimit) {
      this.notice("crashLimit", { count: this.crashes + 1 });
      return;
    }
    this.crashes++;
    this.scheduleRestart(() =>
      this.notice("restartAfterCrash", { count: this.crashes, limit: this.options.crashLimit }),
    );
  }

  private scheduleRestart(say: () => void): void {
    say();
    this.restartTimer = setTimeout(() => {
      if (this.closed || this.process?.running) return;
      this.start().catch((err) => this.notice("restartFailed", { reason: errorText(err) }));
    }, this.options.restartDelayMs);
    this.restartTimer.unref();
  }

  private emit(): void {
    this.hooks.onStatus?.(this.status());
  }
}
