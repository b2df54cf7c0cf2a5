import { setTimeout } from "node:timers/promises";
import type { Isolation } from "../runtime/host-sandbox.ts";
import { ProcessGroup, type SpawnSpec } from "../runtime/process-group.ts";

export interface CommandSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Every chunk of stdout and stderr, in arrival order. */
  onOutput(data: Buffer): void;
  signal: AbortSignal;
  /** The server's sandbox, when the node has one. */
  isolation?: Isolation;
  /** Who runs it on a root node without a sandbox (the administrator's choice). */
  runAs?: SpawnSpec["runAs"];
}

export interface CommandExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs one program to its end. */
export type CommandRunner = (spec: CommandSpec) => Promise<CommandExit>;

/**
 * The default runner: each command leads its own process group, so a
 * cancelled install kills the whole tree it started (an installer's
 * children included), and its input is closed at once so a program that
 * asks a question reads end-of-file instead of waiting forever.
 */
export const processGroupRunner: CommandRunner = async (spec) => {
  const group = new ProcessGroup(
    { argv: spec.argv, cwd: spec.cwd, env: spec.env, isolation: spec.isolation, runAs: spec.runAs },
    spec.onOutput,
  );
  group.closeInput();
  const kill = () => group.signal("SIGKILL");
  if (spec.signal.aborted) kill();
  spec.signal.addEventListener("abort", kill, { once: true });
  try {
    return await group.exited;
  } finally {
    spec.signal.removeEventListener("abort", kill);
    // Whatever the command left running in its group goes with it; then the
    // output still in the pipes is read before the next step (a process
    // outside the group holding them open gets a few seconds, not forever).
    group.signal("SIGKILL");
    const limit = new AbortController();
    await Promise.race([
      group.drained,
      setTimeout(drainLimitMs, undefined, { ref: false, signal: limit.signal }).catch(() => {}),
    ]);
    limit.abort();
  }
};

const drainLimitMs = 5000;
