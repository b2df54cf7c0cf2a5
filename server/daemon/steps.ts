import { type InstallEnvironment, runOperations } from "./install/index.ts";
import type { StepRunner } from "./servers/managed-server.ts";

/** What a node shares between its servers' steps: where javadl puts JDKs, where downloads are cached, … */
export type NodeStepOptions = Pick<
  InstallEnvironment,
  "binariesDir" | "cacheDir" | "curseforgeApiKey" | "sources" | "fetch" | "docker"
>;

/**
 * The node's runner of install / pre / post steps: the step executor
 * (install/) on the server's folder, console and abort signal, with the
 * node's shared folders. Values the steps write through outputVariable
 * come back from runOperations; StepRunner has no way to hand them on yet.
 */
export function stepRunner(node: NodeStepOptions = {}): StepRunner {
  return async (ops, ctx, io) => {
    await runOperations(ops, ctx, { ...node, ...io });
  };
}

/** Without node folders: javadl and steamgamedl fail clearly until the engine passes them. */
export const runSteps: StepRunner = stepRunner();
