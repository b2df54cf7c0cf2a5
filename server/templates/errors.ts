import { ApiError } from "../errors.ts";
import type { Problem } from "./problems.ts";

/**
 * The API errors the template module raises (reference api.md §7). `msg`
 * keeps its `${}` placeholders; the values travel in `metadata`, as the
 * client expects. Errors without a typed code in the Go panel are
 * ErrGeneric with a readable message, which the client shows as is.
 */
export const templateErrors = {
  /** The first problem goes in metadata; `problems` counts them all. */
  invalid: (problems: Problem[]) =>
    new ApiError(400, "ErrTemplateInvalid", "template invalid at ${path}: ${problem}", {
      path: problems[0]?.path ?? "",
      problem: problems[0]?.problem ?? "invalid",
      problems: problems.length,
    }),
  unsupportedOS: (actual: string, expected: string) =>
    new ApiError(400, "ErrUnsupportedOS", "unsupported OS ${actual}, needs ${expected}", {
      actual,
      expected,
    }),
  unsupportedArch: (actual: string, expected: string) =>
    new ApiError(400, "ErrUnsupportedArch", "unsupported architecture ${actual}, needs ${expected}", {
      actual,
      expected,
    }),
  missingBinary: (expected: string) =>
    new ApiError(400, "ErrMissingBinary", "missing binary ${expected}", { expected }),
  noCommand: () => new ApiError(400, "ErrNoCommand", "no command matched"),
  condition: (condition: string, problem: string) =>
    new ApiError(400, "ErrGeneric", `condition \`${condition}\`: ${problem}`, { condition }),
  commandLine: (problem: string) => new ApiError(400, "ErrGeneric", `command line: ${problem}`),
  /** A variable's value that its type, its options or the place it is used refuses. */
  variableInvalid: (field: string, problem: string) =>
    new ApiError(400, "ErrVariableInvalid", "variable ${field}: ${problem}", { field, problem }),
};
