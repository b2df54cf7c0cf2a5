import path from "node:path";
import { type NodeNotice, nodeLine } from "../../contract/node/console-messages.ts";
import { ApiError } from "../../errors.ts";
import {
  ConditionEvaluator,
  isOperationType,
  type Operation,
  prepareOperation,
  type ServerContext,
  type VariableValue,
} from "../../templates/index.ts";
import { Sandbox } from "../sandbox/index.ts";
import { findBinary, processEnvironment } from "../servers/host.ts";
import { processGroupRunner } from "./command-runner.ts";
import type { InstallEnvironment, StepContext } from "./environment.ts";
import { installErrors } from "./errors.ts";
import { defaultSources } from "./sources.ts";
import { stepHandlers } from "./steps/index.ts";

export interface OperationsResult {
  /** Steps that ran. */
  ran: number;
  /** Steps whose `if` was false. */
  skipped: number;
  /** Values steps wrote through outputVariable: the caller saves them into the server's data. */
  variables: Record<string, VariableValue>;
}

/**
 * Runs an install, uninstall, pre or post list (templates.md §4) for one
 * server: in order, each step prepared just before it runs (its CEL `if`
 * evaluated and its `${}` filled with the values of that moment, so a value
 * an earlier step wrote through outputVariable is seen), the first failure
 * ending the list. `file_exists` in conditions looks through the server's
 * sandbox; `success` is true inside a list (a failed step ends it).
 */
export async function runOperations(
  ops: readonly Operation[],
  ctx: ServerContext,
  env: InstallEnvironment,
): Promise<OperationsResult> {
  const sandbox = env.fileSandbox ?? new Sandbox(env.root);
  const signal = env.signal ?? new AbortController().signal;
  const notice: NodeNotice = env.notice ?? ((code, ...args) => env.write(nodeLine(code, ...args)));
  const commandEnv = withBinariesOnPath(env.env ?? processEnvironment(env.root, {}), env.binariesDir);
  const runner = env.runCommand ?? processGroupRunner;
  const conditions =
    ctx.conditions ??
    new ConditionEvaluator({
      fileExists: (file) => sandbox.existsSync(file),
      inPath: (binary) => findBinary(binary, commandEnv.PATH),
    });
  const sources = { ...defaultSources, ...env.sources };
  let variables: Record<string, VariableValue> = { ...ctx.variables };
  const written: Record<string, VariableValue> = {};
  let ran = 0;
  let skipped = 0;

  for (const op of ops) {
    if (signal.aborted) throw installErrors.cancelled();
    if (!isOperationType(op.type)) throw installErrors.missingFactory(String(op.type));
    const scope: ServerContext = {
      ...ctx,
      variables: ctx.exit ? variables : { success: true, ...variables },
      conditions,
    };
    let step: Operation | undefined;
    try {
      step = prepareOperation(op, scope);
    } catch (error) {
      throw named(op.type, error);
    }
    if (!step) {
      notice("skipping", { step: op.type, condition: String(op.if) });
      skipped++;
      continue;
    }
    const stepContext: StepContext = {
      step: step.type,
      root: env.root,
      sandbox,
      write: (data) => env.write(data),
      notice,
      signal,
      env: commandEnv,
      run: async (argv, options = {}) => {
        const label = options.label ?? argv[0];
        const exit = await runner({
          argv,
          cwd: options.cwd ?? env.root,
          env: options.env ?? commandEnv,
          onOutput: (data) => env.write(data),
          signal,
        });
        if (signal.aborted) throw installErrors.cancelled();
        if (exit.signal) throw installErrors.failed(op.type, `${label} was ended by ${exit.signal}`);
        if (exit.code === 127)
          throw installErrors.failed(op.type, `${label} could not be started (exit 127)`);
        if (exit.code !== 0) throw installErrors.failed(op.type, `${label} exited with code ${exit.code}`);
      },
      fetch: env.fetch ?? globalThis.fetch,
      sources,
      binariesDir: env.binariesDir,
      cacheDir: env.cacheDir,
      curseforgeApiKey: env.curseforgeApiKey,
      sendConsole: env.sendConsole,
      docker: env.docker,
      progressIntervalMs: env.progressIntervalMs ?? 5000,
      extractMaxRatio: env.extractMaxRatio,
      variables,
    };
    try {
      const handler = stepHandlers[step.type] as (op: Operation, ctx: StepContext) => Promise<unknown>;
      const result = (await handler(step, stepContext)) as
        | { variables?: Record<string, VariableValue> }
        | undefined;
      for (const [name, value] of Object.entries(result?.variables ?? {})) {
        if (!name) continue;
        written[name] = value;
        variables = { ...variables, [name]: value };
      }
    } catch (error) {
      if (signal.aborted) throw installErrors.cancelled();
      throw named(op.type, error);
    }
    ran++;
  }
  return { ran, skipped, variables: written };
}

/** The node's binaries folder (javadl's java21 links, …) first on the PATH commands see. */
function withBinariesOnPath(env: Record<string, string>, binariesDir?: string): Record<string, string> {
  if (!binariesDir) return env;
  const rest = env.PATH ? `${path.delimiter}${env.PATH}` : "";
  return { ...env, PATH: `${binariesDir}${rest}` };
}

/** An error whose message names the step it came from (keeping its code: ErrIllegalFileAccess stays that). */
function named(step: string, error: unknown): ApiError {
  if (!(error instanceof ApiError)) {
    return installErrors.failed(
      step,
      error instanceof Error ? error.message : String(error),
      {},
      { cause: error },
    );
  }
  if (error.message.startsWith(`${step}:`)) return error;
  return new ApiError(error.status, error.code, `${step}: ${error.message}`, error.metadata, {
    cause: error,
  });
}
