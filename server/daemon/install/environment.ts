import type { NodeNotice } from "../../contract/node/console-messages.ts";
import type { VariableValue } from "../../templates/index.ts";
import type { Sandbox } from "../sandbox/index.ts";
import type { CommandRunner } from "./command-runner.ts";
import type { UpstreamSources } from "./sources.ts";

/**
 * What a list of steps runs against: one server's folder and console, the
 * node's shared folders, and the ways out (processes, HTTP, the running
 * server's input). Only `root` and an output are required; everything else
 * has a working default. Structurally a superset of the servers module's
 * StepIo, so the node passes that object straight through.
 */
export interface InstallEnvironment {
  /** The server's folder (absolute); it must exist. */
  root: string;
  /** Raw output (command output), into the server's console. */
  write(data: string | Buffer): void;
  /** One of the node's `[DAEMON] …` lines (console-messages.ts); default: written through `write`. */
  notice?: NodeNotice;
  /** Cancels the steps: a running command's process group is killed, a download stops. */
  signal?: AbortSignal;
  /** The environment commands get (reference §5.1); default: the daemon's, less its secrets, HOME=root. */
  env?: Record<string, string>;
  /** Runs one program; default: a process group per command (command-runner.ts). */
  runCommand?: CommandRunner;
  /** For the `console` step: a line to the running server's input. Absent: the step fails. */
  sendConsole?(line: string): void;
  /** HTTP for downloads and metadata; default: the global fetch. */
  fetch?: typeof fetch;
  /** Where file steps write (under `root`); default: the plain sandbox of `root`. */
  fileSandbox?: Sandbox;
  /** Replacements for the public services the downloaders use (tests, mirrors). */
  sources?: Partial<UpstreamSources>;
  /** The node's folder for shared programs (javadl's JDKs, DepotDownloader); put first on commands' PATH. */
  binariesDir?: string;
  /** The node's download cache (Maven artifacts, CurseForge packs); without it nothing is kept. */
  cacheDir?: string;
  /** CurseForge's API key (its API refuses anonymous calls). */
  curseforgeApiKey?: string;
  /** For `dockerpull`: the node's Docker engine, when it has one. */
  docker?: { pull(image: string, onOutput: (text: string) => void, signal: AbortSignal): Promise<void> };
  /** Least time between two progress notices of a download (default 5 s). */
  progressIntervalMs?: number;
  /** How many times its size an archive may unpack to (the node's setting; default extract-budget.ts's). */
  extractMaxRatio?: number;
}

/** What each step gets: the environment with its defaults filled in. */
export interface StepContext {
  /** The operation type, for messages. */
  step: string;
  root: string;
  sandbox: Sandbox;
  write(data: string | Buffer): void;
  notice: NodeNotice;
  signal: AbortSignal;
  /** Commands' environment, PATH starting with the binaries folder. */
  env: Record<string, string>;
  /**
   * Runs argv in `cwd` (default the root), output to the console, and fails
   * the step on a non-zero exit, naming `label` (default: the program; never
   * the arguments, which may hold a password).
   */
  run(
    argv: string[],
    options?: { cwd?: string; env?: Record<string, string>; label?: string },
  ): Promise<void>;
  fetch: typeof fetch;
  sources: UpstreamSources;
  binariesDir?: string;
  cacheDir?: string;
  curseforgeApiKey?: string;
  sendConsole?(line: string): void;
  docker?: InstallEnvironment["docker"];
  progressIntervalMs: number;
  extractMaxRatio?: number;
  /** Current variable values (earlier steps' outputVariable included). */
  variables: Readonly<Record<string, VariableValue>>;
}

/** What a step may hand back: values for the server's variables (outputVariable). */
export interface StepResult {
  variables?: Record<string, VariableValue>;
}
