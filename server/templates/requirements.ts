import type { ApiError } from "../errors.ts";
import { templateErrors } from "./errors.ts";
import { replaceTokens, type TokenValues } from "./tokens.ts";
import type { Requirements } from "./types.ts";

export interface RequirementsContext {
  /** Go GOOS / GOARCH of the node. */
  os: string;
  arch: string;
  /** Environment type; binaries are only checked for `host` (a container brings its own). */
  env: string;
  /** `${}` values for binary names (see tokenValues). */
  tokens: TokenValues;
  /** PATH lookup, injected: true when the program is found. */
  findBinary(name: string): boolean;
}

/** `"linux || windows"` → `["linux", "windows"]`; empty means no requirement. */
export function alternatives(text: string | undefined): string[] {
  return (text ?? "")
    .split("||")
    .map((part) => part.trim())
    .filter(Boolean);
}

function allows(rule: string | undefined, actual: string): boolean {
  const allowed = alternatives(rule);
  return allowed.length === 0 || allowed.includes(actual);
}

/**
 * Checks a template's requirements on a node (reference §6, templates.md §7)
 * and returns every failure as the API error the panel answers with:
 * ErrUnsupportedOS / ErrUnsupportedArch {actual, expected},
 * ErrMissingBinary {expected}. Empty when the node qualifies. Each binaries
 * entry is met when any one of its `||` alternatives is on PATH.
 */
export function checkRequirements(requirements: Requirements, ctx: RequirementsContext): ApiError[] {
  const failures: ApiError[] = [];
  const expected = (rule: string | undefined) => alternatives(rule).join(" OR ");
  if (!allows(requirements.os, ctx.os))
    failures.push(templateErrors.unsupportedOS(ctx.os, expected(requirements.os)));
  if (!allows(requirements.arch, ctx.arch)) {
    failures.push(templateErrors.unsupportedArch(ctx.arch, expected(requirements.arch)));
  }
  if (ctx.env !== "host") return failures;
  for (const entry of requirements.binaries ?? []) {
    const names = alternatives(entry).map((name) => replaceTokens(name, ctx.tokens));
    if (names.length > 0 && !names.some((name) => ctx.findBinary(name))) {
      failures.push(templateErrors.missingBinary(names.join(" OR ")));
    }
  }
  return failures;
}
