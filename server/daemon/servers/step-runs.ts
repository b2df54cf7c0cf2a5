import type { NodeNotice } from "../../contract/node/console-messages.ts";
import { ApiError } from "../../errors.ts";
import {
  type Operation,
  renderEnvironmentVars,
  type ServerContext,
  type Template,
  tokenValues,
  type VariableValue,
} from "../../templates/index.ts";
import { type CommandRunner, processGroupRunner } from "../install/command-runner.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { withOutputs } from "./definition-edits.ts";
import { runEggInstall } from "./egg-runtime.ts";
import { processEnvironment } from "./host.ts";
import {
  assertCanRun,
  containerInput,
  dockerRunnerOf,
  isolationOf,
  type RunSubject,
  runAsOf,
} from "./run-plan.ts";

/** What a runner of install / pre / post steps gets besides the steps. */
export interface StepIo {
  root: string;
  env: Record<string, string>;
  /** Output of the steps and their notices, into the server's console. */
  write(text: string | Buffer): void;
  notice: NodeNotice;
  /** For the `console` step: a line to the running process's input. */
  sendConsole(line: string): void;
  signal: AbortSignal;
  /** Runs a command step's program; by default a process group on this host. */
  runCommand?: CommandRunner;
  /** HTTP for downloads; by default the runner's own (a task's: public addresses only). */
  fetch?: typeof globalThis.fetch;
  /** Where file steps write; by default the server's plain sandbox (a task's: as its users reach it). */
  fileSandbox?: Sandbox;
}

/** Runs steps; answers the values they set through outputVariable. */
export type StepRunner = (
  ops: Operation[],
  ctx: ServerContext,
  io: StepIo,
) => Promise<Record<string, VariableValue> | undefined>;

/** Where a run of steps writes: the server's console, or a task run's own output. */
export interface StepOutput {
  write(text: string | Buffer): void;
  notice: NodeNotice;
}

/** What of a server its steps need besides how it runs: its context, and a way to keep outputs. */
export interface StepSubject extends RunSubject {
  context(exit?: ServerContext["exit"]): ServerContext;
  replace(definition: Template): Promise<void>;
}

/**
 * The runs of a server's steps (install, pre, post, a task's, an egg's install script) under way:
 * each can be aborted on its own (the disk guard does, past the limit), and all of them at close.
 */
export class StepRuns {
  private readonly runs = new Set<AbortController>();
  private readonly closing = new AbortController();

  constructor(
    private readonly server: StepSubject,
    private readonly runSteps: StepRunner,
  ) {}

  /** Whether any run is under way. */
  get active(): boolean {
    return this.runs.size > 0;
  }

  /** The runs under way not yet aborted. */
  unaborted(): AbortController[] {
    return [...this.runs].filter((run) => !run.signal.aborted);
  }

  /** Aborts every run, now and to come (the server is closing). */
  close(): void {
    this.closing.abort();
  }

  /**
   * Runs steps with the run section's environment variables; values they
   * output are kept in the server's data.
   */
  async run(
    ops: Operation[],
    exit?: ServerContext["exit"],
    output?: StepOutput,
    signal?: AbortSignal,
    /** A task's: its downloads and files as its author reaches them (runTaskSteps). */
    asUser?: Pick<StepIo, "fetch" | "fileSandbox">,
  ): Promise<void> {
    if (ops.length === 0) return;
    const server = this.server;
    assertCanRun(server);
    const ctx = server.context(exit);
    // A docker server's commands run in its image, as the reference runs them (templates.md §6).
    // A host server's run in its sandbox, as the server itself.
    const runCommand: CommandRunner =
      server.definition.environment.type === "docker"
        ? (spec) => dockerRunnerOf(server).runCommand(containerInput(server, ctx), spec)
        : (spec) => processGroupRunner({ ...spec, isolation: isolationOf(server), runAs: runAsOf(server) });
    const run = new AbortController();
    this.runs.add(run);
    try {
      const outputs = await this.runSteps(ops, ctx, {
        runCommand,
        root: server.root,
        env: processEnvironment(server.root, renderEnvironmentVars(server.definition.run, tokenValues(ctx))),
        write: output ? (text) => output.write(text) : (text) => server.instance.console.write(text),
        notice: output
          ? output.notice.bind(output)
          : (code, ...args) => server.instance.notice(code, ...args),
        sendConsole: (line) => server.instance.sendCommand(line),
        ...asUser,
        signal: AbortSignal.any([this.closing.signal, run.signal, ...(signal ? [signal] : [])]),
      });
      // A step's outputVariable (e.g. a resolved Forge version) becomes a variable later steps see.
      if (outputs && Object.keys(outputs).length > 0)
        await server.replace(withOutputs(server.definition, outputs));
    } catch (error) {
      // Stopped for a reason of the node's (the disk limit): that reason is the error, not "cancelled".
      throw run.signal.reason instanceof ApiError ? run.signal.reason : error;
    } finally {
      this.runs.delete(run);
    }
  }

  /** An egg's install script, in a container of its own image (egg-runtime.ts). */
  async eggInstall(): Promise<void> {
    const server = this.server;
    const run = new AbortController();
    this.runs.add(run);
    try {
      await runEggInstall(
        server.definition,
        dockerRunnerOf(server),
        containerInput(server, server.context()),
        {
          write: (data) => server.instance.console.write(data),
          notice: (code, ...args) => server.instance.notice(code, ...args),
          signal: AbortSignal.any([this.closing.signal, run.signal]),
        },
      );
    } finally {
      this.runs.delete(run);
    }
  }
}
