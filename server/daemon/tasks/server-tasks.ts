import {
  type NodeMessageCode,
  type NodeMessageRest,
  nodeMessageText,
  taskLine,
} from "../../contract/node/console-messages.ts";
import type { NodeTaskView, TaskListView, TaskRunView, TaskTrigger } from "../../contract/node/task-wire.ts";
import { errorText } from "../../errors.ts";
import { nextRun, parseCron } from "../../templates/cron.ts";
import type { Operation } from "../../templates/index.ts";
import type { Task, TaskOperation, TaskSettings } from "../../templates/tasks.ts";
import { Re2NotLoaded } from "../re2.ts";
import type { ManagedServer } from "../servers/managed-server.ts";
import { ConsoleMatcher, consoleLines, matchLimits } from "./console-match.ts";
import type { TaskFileContent, TaskFileWriter, TaskRunsContent } from "./task-file.ts";

export const runsKept = 20;
const outputBytes = 64 * 1024;
/** Runs waiting for a free slot (limitMode wait); more are skipped. */
const waitingMax = 100;
/** setTimeout's limit is about 24.8 days; a later run is re-aimed when the timer fires. */
const timerMaxMs = 24 * 60 * 60 * 1000;

export interface TaskRunOptions {
  /** The longest a run may take before it is stopped (default one hour). */
  runLimitMs: number;
  /** The time all of a server's console patterns share for one chunk (default matchLimits.chunkBudgetMs). */
  consoleBudgetMs?: number;
  /** Told of each run once it has ended (done, failed or skipped): the node's activity events. */
  onRunEnd?: (serverId: string, taskId: string, taskName: string, run: TaskRunView) => void;
}

export const defaultTaskRunOptions: TaskRunOptions = { runLimitMs: 60 * 60 * 1000 };

/** What a task's `backup` operation needs of the node: a finished backup (labelled with the task's name), its file name. */
export type TaskBackup = (server: ManagedServer, taskName: string) => Promise<string>;
export type DeleteBackup = (server: ManagedServer, fileName: string) => Promise<void>;

/** The newest bytes a run wrote. */
class RunOutput {
  text = "";
  write(data: string | Buffer): void {
    this.text += data.toString();
    if (this.text.length > outputBytes) this.text = this.text.slice(-outputBytes);
  }
  /**
   * A line of the runner's or of a step's, through the node's table (console-messages.ts): in
   * English in the run's output, read back into the page's language by our client. Returns its text.
   */
  notice = <C extends NodeMessageCode>(code: C, ...args: NodeMessageRest<C>): string => {
    this.write(taskLine(code, ...args));
    return nodeMessageText(code, ...args);
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * One server's tasks on its node: the schedule (a timer per cron task,
 * aimed at its next run from now, so runs missed while the node was down
 * are not replayed), the event and console-match triggers, the server's
 * concurrency limit, and each task's last runs. Every change is written to
 * the task files before it is answered.
 */
export class ServerTasks {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly due = new Map<string, number>();
  private readonly matchers = new Map<string, { matcher: ConsoleMatcher; last: number }>();
  /** Where the next console chunk starts among the matchers, after one ran out of budget. */
  private nextMatcher = 0;
  private readonly waiting: (() => void)[] = [];
  /** Each task's runs waiting or under way, to stop when the task is disabled or removed. */
  private readonly stoppers = new Map<string, Set<AbortController>>();
  private readonly closing = new AbortController();
  private readonly underWay = new Set<Promise<void>>();
  private running = 0;
  private unsubscribe?: () => void;

  constructor(
    private readonly server: ManagedServer,
    private readonly file: TaskFileContent,
    private readonly history: TaskRunsContent,
    private readonly writer: TaskFileWriter,
    private readonly backup: TaskBackup,
    private readonly deleteBackup: DeleteBackup,
    private readonly options: TaskRunOptions,
  ) {}

  /** Starts the triggers. Runs the node was in the middle of when it stopped are recorded as cut short. */
  start(): void {
    let cut = false;
    for (const runs of Object.values(this.history.runs)) {
      for (const run of runs) {
        if (run.finished !== null) continue;
        Object.assign(run, {
          finished: run.started,
          success: false,
          message: nodeMessageText("taskRunCut"),
        });
        cut = true;
      }
    }
    if (cut) void this.writer.saveRuns(this.history).catch(() => {});
    for (const id of Object.keys(this.file.tasks)) this.arm(id);
    this.unsubscribe = this.server.subscribe((event) => {
      if (event.type === "lifecycle") {
        for (const [id, task] of Object.entries(this.file.tasks)) {
          if (task.enabled && task.event === event.event) this.trigger(id, "event");
        }
      } else if (event.type === "console" && this.matchers.size > 0) {
        this.matchConsole(event.chunk.data.toString());
      }
    });
  }

  get count(): number {
    return Object.keys(this.file.tasks).length;
  }

  get settings(): TaskSettings {
    return this.file.settings;
  }

  list(): TaskListView {
    return {
      tasks: Object.keys(this.file.tasks).map((id) => this.view(id)),
      settings: this.file.settings,
    };
  }

  has(id: string): boolean {
    return Object.hasOwn(this.file.tasks, id);
  }

  view(id: string): NodeTaskView {
    const task = this.file.tasks[id];
    const last = (this.history.runs[id] ?? []).find((run) => run.finished !== null);
    const due = this.due.get(id);
    return {
      id,
      ...task,
      nextRun: due === undefined ? null : iso(due),
      lastRun: last ? { time: last.started, success: last.success === true, message: last.message } : null,
    };
  }

  runs(id: string): TaskRunView[] {
    return this.history.runs[id] ?? [];
  }

  async put(id: string, task: Task): Promise<void> {
    this.file.tasks[id] = task;
    await this.writer.save(this.file);
    this.arm(id);
    // Disabled (by hand, or by the panel when its author lost a right it needs): no run goes on.
    if (!task.enabled) this.stopRuns(id);
  }

  /** Ends a task's waiting runs and cuts its runs under way short, each saying why. */
  private stopRuns(id: string): void {
    for (const stopper of this.stoppers.get(id) ?? []) stopper.abort();
  }

  async remove(id: string): Promise<void> {
    this.stopRuns(id);
    delete this.file.tasks[id];
    delete this.history.runs[id];
    // The backups it made stay, as any others.
    delete this.history.backups[id];
    this.disarm(id);
    await this.writer.save(this.file);
    await this.writer.saveRuns(this.history);
  }

  async setSettings(settings: TaskSettings): Promise<void> {
    this.file.settings = settings;
    await this.writer.save(this.file);
    for (const id of Object.keys(this.file.tasks)) this.arm(id);
    this.release();
  }

  /** Stops the triggers and the runs under way (each recorded as stopped). */
  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const id of [...this.timers.keys()]) this.disarm(id);
    this.closing.abort(new Error("the node is shutting down"));
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.allSettled([...this.underWay]);
  }

  /** Sets up a task's schedule or console pattern, after any change to it. */
  private arm(id: string): void {
    this.disarm(id);
    const task = this.file.tasks[id];
    if (!task?.enabled) return;
    if (task.consoleMatch !== undefined) {
      try {
        this.matchers.set(id, { matcher: new ConsoleMatcher(task.consoleMatch), last: 0 });
      } catch (error) {
        if (error instanceof Re2NotLoaded) throw error;
        // Saved before the node matched with RE2, which cannot run it (the node refuses such a
        // pattern now): not armed, and the task's editor says why when it is next saved.
      }
    }
    if (task.cronSchedule !== undefined) this.aim(id, Date.now());
  }

  private disarm(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    this.due.delete(id);
    this.matchers.delete(id);
  }

  /** Aims the task's timer at its first run after `after`. */
  private aim(id: string, after: number): void {
    const task = this.file.tasks[id];
    if (!task?.cronSchedule) return;
    const next = nextRun(parseCron(task.cronSchedule, this.file.settings.timezone), after);
    if (next === undefined) return;
    this.due.set(id, next);
    const timer = setTimeout(() => this.fire(id), Math.min(Math.max(next - Date.now(), 0), timerMaxMs));
    timer.unref();
    this.timers.set(id, timer);
  }

  private fire(id: string): void {
    const due = this.due.get(id);
    if (due === undefined) return;
    const now = Date.now();
    if (now < due) {
      // Woken early (a far run, or a clock moved back): aim again.
      this.aim(id, due - 60_000);
      return;
    }
    this.trigger(id, "schedule");
    // From now, not from when it was due: a late wake (a node asleep) does not fire the runs it missed.
    this.aim(id, Math.max(now, due));
  }

  /**
   * One console chunk against this server's task patterns, within one budget for all of them (a
   * hundred tasks each under a per-pattern cut-off still held the node 3.5 s a chunk). Each chunk
   * starts where the last one ran out, so every pattern gets its turn; a pattern that spends the
   * whole budget alone pauses for a minute and the console says so.
   */
  matchConsole(text: string): void {
    if (this.matchers.size === 0) return;
    const now = Date.now();
    const lines = consoleLines(text);
    const entries = [...this.matchers];
    const budget = this.options.consoleBudgetMs ?? matchLimits.chunkBudgetMs;
    const started = performance.now();
    for (let step = 0; step < entries.length; step++) {
      const index = (this.nextMatcher + step) % entries.length;
      const [id, entry] = entries[index];
      // At most once a second, however chatty the console.
      if (now - entry.last < 1000 || entry.matcher.paused) continue;
      const before = performance.now();
      // No pattern runs past the chunk's budget (the first one tried: past firstPatternMs), one line aside.
      const deadline = started + (step === 0 ? Math.max(budget, matchLimits.firstPatternMs) : budget);
      const found = entry.matcher.test(lines, deadline);
      const after = performance.now();
      if (found) {
        entry.last = now;
        this.trigger(id, "console");
      }
      if (after - before > budget) {
        entry.matcher.pause();
        this.server.instance.notice("taskPatternPaused", { task: this.file.tasks[id]?.name ?? id });
      }
      if (after - started > budget) {
        this.nextMatcher = index + 1;
        return;
      }
    }
  }

  /** Runs a task now, by the server's limit: waits for a free slot or is skipped (recorded either way). */
  trigger(id: string, trigger: TaskTrigger): TaskRunView {
    const task = this.file.tasks[id];
    const run: TaskRunView = {
      id: this.history.nextRunId++,
      trigger,
      started: iso(Date.now()),
      finished: null,
      success: null,
      message: "",
      output: "",
    };
    const runs = [run, ...(this.history.runs[id] ?? [])].slice(0, runsKept);
    this.history.runs[id] = runs;
    const { concurrentLimit, limitMode } = this.file.settings;
    if (this.running >= concurrentLimit && (limitMode === "skip" || this.waiting.length >= waitingMax)) {
      this.finish(id, run, false, nodeMessageText("taskRunSkipped", { count: this.running }));
      return run;
    }
    const work = this.execute(id, task, run);
    this.underWay.add(work);
    void work.finally(() => this.underWay.delete(work));
    return run;
  }

  private async execute(id: string, task: Task, run: TaskRunView): Promise<void> {
    const stopper = new AbortController();
    const stoppers = this.stoppers.get(id) ?? new Set();
    this.stoppers.set(id, stoppers.add(stopper));
    try {
      await this.executeUnlessStopped(id, task, run, stopper.signal);
    } finally {
      stoppers.delete(stopper);
      if (stoppers.size === 0 && this.stoppers.get(id) === stoppers) this.stoppers.delete(id);
    }
  }

  private async executeUnlessStopped(id: string, task: Task, run: TaskRunView, stopped: AbortSignal) {
    if (this.running >= this.file.settings.concurrentLimit) {
      run.message = nodeMessageText("taskRunWaiting");
      void this.writer.saveRuns(this.history).catch(() => {});
      await new Promise<void>((wake) => {
        this.waiting.push(wake);
        // Stopped while waiting: out of the queue, so the next free slot wakes another run.
        const leave = () => {
          const place = this.waiting.indexOf(wake);
          if (place !== -1) this.waiting.splice(place, 1);
          wake();
        };
        stopped.addEventListener("abort", leave, { once: true });
      });
      run.message = "";
    }
    if (stopped.aborted) {
      this.finish(id, run, false, nodeMessageText("taskRunDisabled"));
      return;
    }
    if (this.closing.signal.aborted) {
      this.finish(id, run, false, nodeMessageText("taskRunShuttingDown"));
      return;
    }
    this.running++;
    run.started = iso(Date.now());
    void this.writer.saveRuns(this.history).catch(() => {});
    const output = new RunOutput();
    const limit = AbortSignal.timeout(this.options.runLimitMs);
    const signal = AbortSignal.any([limit, this.closing.signal, stopped]);
    try {
      for (const [index, op] of task.operations.entries()) {
        const number = index + 1;
        output.notice("taskOperation", { number, type: op.type });
        try {
          await abortable(this.operation(id, op, output, signal), signal);
        } catch (error) {
          // The run's last line, and its message: the same words.
          const message = stopped.aborted
            ? output.notice("taskRunDisabled")
            : limit.aborted
              ? output.notice("taskOperationTimedOut", {
                  number,
                  type: op.type,
                  seconds: Math.round(this.options.runLimitMs / 1000),
                })
              : output.notice("taskOperationFailed", { number, type: op.type, reason: errorText(error) });
          throw new Error(message, { cause: error });
        }
      }
      run.output = output.text;
      this.finish(id, run, true, "");
    } catch (error) {
      run.output = output.text;
      this.finish(id, run, false, (error as Error).message);
    } finally {
      this.running--;
      this.release();
    }
  }

  private release(): void {
    // A woken run counts once it starts, so one is woken per free slot.
    if (this.running < this.file.settings.concurrentLimit) this.waiting.shift()?.();
  }

  private finish(id: string, run: TaskRunView, success: boolean, message: string): void {
    run.finished = iso(Date.now());
    run.success = success;
    run.message = message;
    void this.writer.saveRuns(this.history).catch(() => {});
    this.options.onRunEnd?.(this.server.id, id, this.file.tasks[id]?.name ?? "", run);
  }

  private async operation(
    id: string,
    op: TaskOperation,
    output: RunOutput,
    signal: AbortSignal,
  ): Promise<void> {
    const server = this.server;
    switch (op.type) {
      case "start":
        await server.start();
        output.notice("taskServerStarted");
        return;
      case "stop":
        await server.instance.stop(true);
        output.notice("taskServerStopped");
        return;
      case "restart":
        await server.instance.stop(true);
        await server.start();
        output.notice("taskServerRestarted");
        return;
      case "kill":
        await server.instance.kill();
        output.notice("taskServerKilled");
        return;
      case "backup":
        return this.backupOperation(id, op.keep, output);
      default:
        await server.runTaskSteps([op as Operation], output, signal);
    }
  }

  /** A backup, then the oldest of those this task made beyond `keep` removed (others' backups are not touched). */
  private async backupOperation(id: string, keep: number | undefined, output: RunOutput): Promise<void> {
    const fileName = await this.backup(this.server, this.file.tasks[id]?.name ?? id);
    output.notice("taskBackupMade", { file: fileName });
    const made = [...(this.history.backups[id] ?? []), fileName];
    while (keep !== undefined && made.length > keep) {
      const oldest = made.shift() as string;
      await this.deleteBackup(this.server, oldest);
      output.notice("taskBackupRemoved", { file: oldest, keep });
    }
    this.history.backups[id] = made;
    await this.writer.saveRuns(this.history);
  }
}
