import os from "node:os";
import { PassThrough } from "node:stream";
import type Docker from "dockerode";
import { nodeLine } from "../../contract/node/console-messages.ts";
import { cpuThreadsUnavailable } from "../runtime/cgroups/pinning.ts";
import type { ServerProcess } from "../runtime/instance.ts";
import type { ExitResult } from "../runtime/process-group.ts";
import type { ProcessStats } from "../runtime/tree-stats.ts";

const signalNumbers = os.constants.signals as Record<string, number>;

/** The signal whose default death gives `128 + n` as a container's exit code. */
function signalOf(exitCode: number): NodeJS.Signals | null {
  const name = Object.keys(signalNumbers).find((s) => signalNumbers[s] === exitCode - 128);
  return (name as NodeJS.Signals) ?? null;
}

/** Removes a container, whether it runs or not; a container already gone is fine. */
async function removeContainer(container: Docker.Container): Promise<void> {
  await container.remove({ force: true }).catch((err: { statusCode?: number }) => {
    if (err.statusCode !== 404) throw err;
  });
}

/**
 * A server running in a container: created, attached (stdin, stdout,
 * stderr) before it starts so no output is lost, and removed as soon as it
 * exits, so a stopped server leaves no container behind. What the state
 * machine sees is the same as for a host process: exit code or signal,
 * input lines, signals, and stats.
 */
export class ContainerProcess implements ServerProcess {
  readonly exited: Promise<ExitResult>;
  private alive = true;
  /** Signals sent by stop or kill: an exit of 128+n after one of them is reported as that signal. */
  private readonly sent = new Set<NodeJS.Signals | null>();

  private constructor(
    private readonly container: Docker.Container,
    private readonly input: NodeJS.WritableStream,
    output: Promise<void>,
    private readonly onOutput: (data: Buffer) => void,
  ) {
    this.exited = this.waitForExit(output);
  }

  /** Creates and starts the container; a leftover of the same server (a node that crashed) is removed first. */
  static async start(
    docker: Docker,
    spec: Docker.ContainerCreateOptions,
    onOutput: (data: Buffer) => void,
  ): Promise<ContainerProcess> {
    await removeContainer(docker.getContainer(spec.name ?? ""));
    const container = await docker.createContainer(spec);
    try {
      await keptThreads(container, spec);
      const stream = (await container.attach({
        stream: true,
        stdin: spec.OpenStdin ?? false,
        stdout: true,
        stderr: true,
        hijack: true,
      })) as NodeJS.ReadWriteStream;
      const stdout = new PassThrough();
      stdout.on("data", onOutput);
      docker.modem.demuxStream(stream, stdout, stdout);
      const output = new Promise<void>((resolve) => {
        stream.once("end", resolve);
        stream.once("close", resolve);
        // A broken connection must not crash the node: the container's exit still comes through wait.
        stream.on("error", () => resolve());
      });
      await container.start();
      return new ContainerProcess(container, stream, output, onOutput);
    } catch (err) {
      await removeContainer(container).catch(() => {});
      throw err;
    }
  }

  get running(): boolean {
    return this.alive;
  }

  writeLine(line: string): boolean {
    if (!this.alive) return false;
    this.input.write(`${line}\n`);
    return true;
  }

  /** Sends a signal to the container's main process (`docker kill -s`). */
  signal(signal: NodeJS.Signals | number): void {
    if (!this.alive) return;
    const name = typeof signal === "number" ? signalOf(128 + signal) : signal;
    this.sent.add(name);
    this.container.kill({ signal: String(signal) }).catch(() => {
      // Gone already: its exit is on the way.
    });
  }

  /** CPU (percent of one core) and memory from the engine; its one-shot sample takes about a second. */
  async sample(): Promise<ProcessStats> {
    if (!this.alive) return { cpu: 0, memory: 0 };
    const stats = await this.container.stats({ stream: false }).catch(() => undefined);
    if (!stats) return { cpu: 0, memory: 0 };
    const cpuDelta = stats.cpu_stats.cpu_usage.total_usage - stats.precpu_stats.cpu_usage.total_usage;
    const systemDelta = stats.cpu_stats.system_cpu_usage - (stats.precpu_stats.system_cpu_usage ?? 0);
    const cpus = stats.cpu_stats.online_cpus || os.availableParallelism();
    const cpu = systemDelta > 0 && cpuDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0;
    // Page cache is not the server's memory (what `docker stats` shows too).
    const cache = (stats.memory_stats.stats as Record<string, number> | undefined)?.cache ?? 0;
    const memory = Math.max(0, (stats.memory_stats.usage ?? 0) - cache);
    return { cpu: Math.round(cpu * 100) / 100, memory };
  }

  private async waitForExit(output: Promise<void>): Promise<ExitResult> {
    let exitCode = -1;
    try {
      const result = (await this.container.wait()) as { StatusCode: number };
      exitCode = result.StatusCode;
      // Output written just before the exit still arrives after it.
      await Promise.race([output, new Promise((r) => setTimeout(r, 2000).unref())]);
      const state = (await this.container.inspect()).State;
      if (state.OOMKilled) {
        this.onOutput(Buffer.from(nodeLine("containerMemoryKilled")));
        return { code: null, signal: "SIGKILL" };
      }
    } catch (err) {
      this.onOutput(Buffer.from(nodeLine("containerLost", { reason: (err as Error).message })));
    } finally {
      this.alive = false;
      await removeContainer(this.container).catch((err) =>
        this.onOutput(Buffer.from(nodeLine("containerRemoveFailed", { reason: err.message }))),
      );
    }
    const signal = exitCode > 128 ? signalOf(exitCode) : null;
    if (signal && this.sent.has(signal)) return { code: null, signal };
    return { code: exitCode, signal: null };
  }
}

/**
 * An engine whose kernel has no cpuset controller drops a container's CPU threads with a mere
 * warning; the server would use every CPU, so its start is refused instead (as on a host node).
 */
async function keptThreads(container: Docker.Container, spec: Docker.ContainerCreateOptions): Promise<void> {
  const wanted = spec.HostConfig?.CpusetCpus;
  if (!wanted) return;
  const kept = (await container.inspect()).HostConfig.CpusetCpus ?? "";
  if (kept !== wanted) {
    throw cpuThreadsUnavailable(
      wanted,
      `the Docker engine kept "${kept}": its kernel has no cpuset controller`,
    );
  }
}
