import { type ChildProcess, spawn } from "node:child_process";
import { nodeLine } from "../../contract/node/console-messages.ts";
import type { ServerCgroup } from "./cgroups/index.ts";
import { type Isolation, sandboxArgv, unconfinedArgv } from "./host-sandbox.ts";

export interface SpawnSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Run inside the node's sandbox (host-sandbox.ts); absent: a plain process (a host that cannot sandbox). */
  isolation?: Isolation;
  /** Without a sandbox (the administrator's choice) on a root node: run as the server's own uid, never root. */
  runAs?: { root: string; uid: number; gid: number };
  /** The cgroup holding the limits: the process is put in it before the program starts. */
  cgroup?: ServerCgroup;
}

/** The sandbox reports the host pid of the command it runs on this descriptor. */
const statusFd = 3;
/** A process that must be in its cgroup before it runs waits here for a line (the gate). */
const gateFd = 4;
const gate = ["/bin/sh", "-c", `read _ <&${gateFd}; exec ${gateFd}<&-; exec "$@"`, "sh"];

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
  /** Resolves once the process runs its program (in its cgroup, when it has one). */
  readonly ready: Promise<void>;
  /** Resolves once stdout and stderr are closed: output that trails the exit has been delivered. */
  readonly drained: Promise<void>;

  /** The sandboxed command's own pid (bwrap does not pass signals on, so a graceful stop goes there). */
  private innerPid?: number;

  constructor(spec: SpawnSpec, onOutput: (data: Buffer) => void) {
    const isolation = spec.isolation;
    const runAs = spec.runAs;
    const inner = isolation
      ? sandboxArgv(isolation, spec.argv, spec.cwd, spec.env, statusFd)
      : runAs
        ? unconfinedArgv(runAs.root, runAs.uid, runAs.gid, spec.argv, spec.cwd)
        : spec.argv;
    const [command, ...args] = spec.cgroup ? [...gate, ...inner] : inner;
    this.child = spawn(command, args, {
      cwd: isolation || runAs ? "/" : spec.cwd,
      // The sandbox is started as the daemon (it drops to the server's uid itself) and gets exactly spec.env inside.
      env: isolation ? { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } : spec.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", isolation ? "pipe" : "ignore", spec.cgroup ? "pipe" : "ignore"],
    });
    if (isolation) this.readStatus();
    this.ready = spec.cgroup ? this.enter(spec.cgroup) : Promise.resolve();
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
        onOutput(Buffer.from(nodeLine("couldNotStart", { command, reason: err.message })));
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

  /**
   * Sends a signal to every process of the group. In the sandbox the command
   * leads a session of its own: anything but a kill goes to its group (a
   * graceful stop), a kill to the sandbox, which takes everything inside down.
   */
  signal(signal: NodeJS.Signals | number): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    const inner = signal !== "SIGKILL" && signal !== 9 ? this.innerPid : undefined;
    try {
      process.kill(-(inner ?? pid), signal);
    } catch {
      // The group is already gone.
    }
  }

  /** Puts the waiting process in its cgroup, then lets it go on; a process that cannot be placed is killed. */
  private async enter(cgroup: ServerCgroup): Promise<void> {
    const pid = this.child.pid;
    const gateStream = this.child.stdio[gateFd] as NodeJS.WritableStream | null;
    gateStream?.on("error", () => {});
    if (pid === undefined) return;
    try {
      await cgroup.add(pid);
    } catch (error) {
      this.signal("SIGKILL");
      throw error;
    }
    gateStream?.end("go\n");
  }

  private readStatus(): void {
    const status = this.child.stdio[statusFd];
    if (!status || !("on" in status)) return;
    let text = "";
    status.on("data", (data: Buffer) => {
      text += data.toString();
      const match = /"child-pid":\s*(\d+)/.exec(text);
      if (match) this.innerPid = Number(match[1]);
    });
    status.on("error", () => {});
  }
}
