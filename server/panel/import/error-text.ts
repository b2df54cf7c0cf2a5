import { ApiError } from "../../errors.ts";

/** An error as one line of the import's report: a service's code and metadata, else its message. */
export const errorText = (err: unknown) =>
  err instanceof ApiError
    ? `${err.code}${err.metadata ? ` ${JSON.stringify(err.metadata)}` : ""}`
    : err instanceof Error
      ? err.message
      : String(err);

/** The panel itself refused (a port taken here, say): no daemon to wait for. */
export const refusedHere = (err: unknown) =>
  err instanceof ApiError && (err.status === 400 || err.status === 409);
