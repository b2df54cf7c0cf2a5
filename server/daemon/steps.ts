import { ApiError } from "../errors.ts";
import type { StepRunner } from "./servers/managed-server.ts";

/**
 * The node's runner of install / pre / post steps. Until the step executor
 * is connected, any step fails loudly with ErrMissingFactory rather than
 * pretending to have run.
 */
export const runSteps: StepRunner = async (ops) => {
  if (ops.length > 0) {
    throw new ApiError(500, "ErrMissingFactory", "no executor for ${operatorName}", {
      operatorName: ops[0].type,
    });
  }
};
