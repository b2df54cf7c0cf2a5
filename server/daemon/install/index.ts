/**
 * The executor of template operations (install, uninstall, run.pre,
 * run.post): every kind the template module defines, each on the server's
 * sandbox, its console and the node's shared folders.
 */
export {
  type CommandExit,
  type CommandRunner,
  type CommandSpec,
  processGroupRunner,
} from "./command-runner.ts";
export type { InstallEnvironment, StepContext, StepResult } from "./environment.ts";
export { installErrors } from "./errors.ts";
export { type OperationsResult, runOperations } from "./run-operations.ts";
export { defaultSources, type UpstreamSources } from "./sources.ts";
