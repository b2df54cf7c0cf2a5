import { isApiError } from "../../../api/errors";
import { handleApiError } from "../../../app/errorHandler";

/**
 * Failures of the calls that bypass the shared client (browse, read, upload; see api/files.ts)
 * go to the same global handler the client uses. Cancelled work is not a failure.
 */
export function reportError(err: unknown): void {
  if (isApiError(err)) handleApiError(err);
}

export const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";
