import { substituteConsoleConfig } from "./console-config.ts";
import { conditionHolds, type ServerContext, tokenValues } from "./context.ts";
import { fieldsOf, type Operation } from "./operation-kinds.ts";
import { substituteTokens, type UserValueNames } from "./substitute.ts";
import type { TokenValues } from "./tokens.ts";
import type { ConsoleConfig } from "./types.ts";

/**
 * An operation with `${}` replaced in every text field: strings, lists, maps and console config.
 * A user's value is checked for the field's role (a path, a URL, a command line…) and stays one value.
 */
export function substituteOperation<T extends Operation>(
  operation: T,
  tokens: TokenValues,
  userValues: UserValueNames,
): T {
  const copy: Record<string, unknown> = { ...operation };
  for (const [name, spec] of fieldsOf(operation.type)) {
    const value = copy[name];
    if (value === undefined) continue;
    const replaceTokens = (text: string) => substituteTokens(text, tokens, spec.role ?? "text", userValues);
    switch (spec.kind) {
      case "string":
      case "duration":
        copy[name] = replaceTokens(value as string);
        break;
      case "strings":
        copy[name] = (value as string[]).map((item) => replaceTokens(item));
        break;
      case "stringMap":
        copy[name] = Object.fromEntries(
          Object.entries(value as Record<string, string>).map(([key, item]) => [key, replaceTokens(item)]),
        );
        break;
      case "console":
        copy[name] = substituteConsoleConfig(value as ConsoleConfig, tokens, userValues);
        break;
      case "boolean":
        break;
    }
  }
  return copy as T;
}

/**
 * One step ready to run: undefined when its `if` is false, else the operation
 * with its tokens replaced. Executors call this just before each step, so a
 * value written by an earlier step's outputVariable (and `success`) is seen.
 */
export function prepareOperation(operation: Operation, ctx: ServerContext): Operation | undefined {
  if (!conditionHolds(operation.if, ctx)) return undefined;
  return substituteOperation(operation, tokenValues(ctx), ctx.userValues);
}

/**
 * A whole list prepared at once with the same values: what the steps will be
 * when none of them changes a variable. Good for previews and checks; an
 * executor that honours outputVariable uses prepareOperation step by step.
 */
export function prepareOperations(operations: readonly Operation[], ctx: ServerContext): Operation[] {
  return operations.flatMap((operation) => prepareOperation(operation, ctx) ?? []);
}
