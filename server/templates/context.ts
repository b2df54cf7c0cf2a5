import { type ConditionEvaluator, type ConditionScope, defaultConditionEvaluator } from "./conditions.ts";
import type { UserValueNames } from "./substitute.ts";
import type { TokenValues } from "./tokens.ts";
import type { VariableValue } from "./types.ts";

/**
 * Where a definition is being used: which server, in which directory and
 * environment, on which host, with which variable values. Everything that
 * renders or evaluates a template takes one of these.
 */
export interface ServerContext {
  serverId: string;
  /** The server's absolute directory (`${rootDir}`). */
  rootDir: string;
  /** Go GOOS / GOARCH names of the host (see goPlatform). */
  os: string;
  arch: string;
  /** The environment the server runs in: `host` or `docker` (CEL `env`). */
  env: string;
  /** Current variable values by name (the definition's data map). */
  variables: Readonly<Record<string, VariableValue>>;
  /** The variables whose values a server's users set (userValueNames): each stays one value. */
  userValues: UserValueNames;
  /** Set for run.post: how the process ended. */
  exit?: { success: boolean; exitCode: number };
  /** Evaluator with the host's file_exists / in_path; without one those functions fail. */
  conditions?: ConditionEvaluator;
}

function exitValues(ctx: ServerContext): Record<string, VariableValue> {
  return ctx.exit ? { success: ctx.exit.success, exitCode: ctx.exit.exitCode } : {};
}

/** The `${}` map: variables plus serverId, rootDir, core:os, core:arch (and exit values in post). */
export function tokenValues(ctx: ServerContext): TokenValues {
  return {
    ...ctx.variables,
    serverId: ctx.serverId,
    rootDir: ctx.rootDir,
    "core:os": ctx.os,
    "core:arch": ctx.arch,
    ...exitValues(ctx),
  };
}

/** The CEL scope: variables plus env, serverId, os, arch (and success, exitCode in post). */
export function conditionScope(ctx: ServerContext): ConditionScope {
  return {
    ...ctx.variables,
    env: ctx.env,
    serverId: ctx.serverId,
    os: ctx.os,
    arch: ctx.arch,
    ...exitValues(ctx),
  };
}

/** Whether a step's `if` holds in this context (an empty one always does). */
export function conditionHolds(condition: string | undefined, ctx: ServerContext): boolean {
  return (ctx.conditions ?? defaultConditionEvaluator()).evaluate(condition, conditionScope(ctx));
}
