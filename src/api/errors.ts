// The error object of spec §3/§8 and the pure rules that route it. No DOM, no i18n.

export interface RequestInfo {
  method: string;
  url: string;
  body?: unknown;
}

export interface ApiError extends Error {
  status?: number;
  statusText?: string;
  code: string;
  msg?: string;
  metadata?: Record<string, unknown>;
  response?: unknown;
  request: RequestInfo;
}

export const UNKNOWN = "ErrUnknownError";
/** Ours, client-side only: a wrong one-time or recovery code (see CallOptions.sendsCode). */
export const WRONG_CODE = "ErrWrongCode";

/** Build the error from whatever came back: envelope `{error:{code,msg,metadata}}` or nothing. */
export function toApiError(
  request: RequestInfo,
  status: number | undefined,
  statusText: string | undefined,
  body: unknown,
  cause?: unknown,
): ApiError {
  const env = (body as { error?: unknown } | null | undefined)?.error;
  const e = env && typeof env === "object" ? (env as Record<string, unknown>) : {};
  const code = typeof e.code === "string" && e.code ? e.code : UNKNOWN;
  const msg = typeof e.msg === "string" ? e.msg : undefined;
  const metadata =
    e.metadata && typeof e.metadata === "object" ? (e.metadata as Record<string, unknown>) : undefined;
  const err = new Error(
    msg ?? (status ? `Request failed with status code ${status}` : "Network Error"),
  ) as ApiError;
  err.name = "ApiError";
  Object.assign(err, { status, statusText, code, msg, metadata, response: body, request, cause });
  return err;
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof Error && e.name === "ApiError";
}

export type ErrorRoute =
  | { kind: "session" }
  | { kind: "generic"; msg: string }
  | { kind: "unknown" }
  | { kind: "code"; code: string; metadata: Record<string, unknown> };

/** Which branch of the handler (spec §8) an error takes. */
export function routeError(err: Pick<ApiError, "status" | "code" | "msg" | "metadata">): ErrorRoute {
  if (err.status === 401) return { kind: "session" };
  if (err.code === "ErrGeneric" && err.msg) return { kind: "generic", msg: err.msg };
  if (err.code === UNKNOWN) return { kind: "unknown" };
  return { kind: "code", code: err.code, metadata: err.metadata ?? {} };
}

/** Replace `${name}` placeholders of a server msg with metadata values. */
export function fillTemplate(msg: string, metadata: Record<string, unknown> | undefined): string {
  return msg.replace(/\$\{(\w+)\}/g, (all, k: string) =>
    metadata && k in metadata ? String(metadata[k]) : all,
  );
}
