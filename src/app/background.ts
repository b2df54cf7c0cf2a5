import type { CallOptions } from "../api/client";
import { isApiError } from "../api/errors";
import { handleApiError } from "./errorHandler";

// Background refreshes (polling) fail quietly — a toast every few seconds helps nobody — except
// when the session ended: that still takes the user to Login.

export const quiet: CallOptions = { exempt: true };

export function reportSessionEnd(err: unknown): void {
  if (isApiError(err) && err.status === 401) handleApiError(err);
}
