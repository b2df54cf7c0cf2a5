import { type ChildProcess, spawn } from "node:child_process";

export interface SpawnSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * One game-server process, started as the leader of its own process group so
 * that stop and kill reach the whole tree it starts (shell wrappers, Java
 * launchers, …). Output of stdout and stderr goes to `onOutput` in arrival order.
 */
export class ProcessGroup {
  private readonly child: ChildProcess;
  readonly exited: Promise<ExitResult>;
  /** Resolves once stdout and stderr are closed: output that trails the exit has been delivered. */
  readonly drained: Promise<void>;

  constructor(spec: SpawnSpec, onOutput: (data: Buffer) => void) {
    const [command, ...args] = spec.argv;
    this.child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", onOutput);
    this.child.stderr?.on("data", onOutput);
    // A closed stdin (process gone) must not crash the daemon.
    this.child.stdin?.on("error", () => {});
    this.drained = new Promise((resolve) => {
      this.child.once("close", () => resolve());
      this.child.once("error", () => resolve());
    });
    this.exited = new Promise((resolve) => {
      this.child.once("error", (err) => {
        onOutput(Buffer.from(`[DAEMON] could not start ${command}: ${err.message}\n`));
        resolve({ code: 127, signal: null });
      });
      this.child.once("exit", (code, signal) => resolve({ code, signal }));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined;
  }

  /** Writes one line to the process's input. */
  writeLine(line: string): boolean {
    if (!this.running || !this.child.stdin?.writable) return false;
    this.child.stdin.write(`${line}\n`);
    return true;
  }

  /** Ends the process's input: a program that asks a question (install steps run unattended) reads EOF instead of waiting. */
  closeInput(): void {
    this.child.stdin?.end();
  }

  /** Sends a signal to every process of the group. */
  signal(signal: NodeJS.Signals | number): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }
}
