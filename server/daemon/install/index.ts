/**
 * The executor of template operations (install, uninstall, run.pre,
 * run.post): every kind the template module defines, each on the server's
 * sandbox, its console and the node's shared folders.
 */
export type { InstallEnvironment } from "./environment.ts";
export { runOperations } from "./run-operations.ts";
export type { UpstreamSources } from "./sources.ts";
