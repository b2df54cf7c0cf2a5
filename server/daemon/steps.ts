import { type InstallEnvironment, runOperations } from "./install/index.ts";
import type { StepRunner } from "./servers/step-runs.ts";

/** What a node shares between its servers' steps: where javadl puts JDKs, where downloads are cached, … */
export type NodeStepOptions = Pick<
  InstallEnvironment,
  "binariesDir" | "cacheDir" | "curseforgeApiKey" | "sources" | "fetch" | "docker" | "extractMaxRatio"
>;

/**
 * The node's runner of install / pre / post steps: the step executor
 * (install/) on the server's folder, console and abort signal, with the
 * node's shared folders. Values the steps write through outputVariable are
 * handed back for the server to keep.
 */
export function stepRunner(node: NodeStepOptions = {}): StepRunner {
  return async (ops, ctx, io) => {
    return (await runOperations(ops, ctx, { ...node, ...io })).variables;
  };
}
