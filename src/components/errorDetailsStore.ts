import { signal } from "@preact/signals-react";
import type { ApiError } from "../api/errors";

export const errorDetails = signal<ApiError | null>(null);

export function showErrorDetails(err: ApiError): void {
  errorDetails.value = err;
}
