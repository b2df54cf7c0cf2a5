import { requestAnswered, requestUnanswered } from "../offline/network";
import { LAST_KNOWN_AT_HEADER } from "../offline/storage";
import { readCookie, XSRF_COOKIE } from "../state/cookies";
import { getToken } from "../state/token";
import { type ApiError, isApiError, toApiError } from "./errors";

// The one place that talks HTTP (spec §7–§8): same origin, cookies, bearer token when stored,
// XSRF header on unsafe methods, no timeout, no retries; failures go to the registered handler
// (unless exempt) and are then thrown.

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "HEAD" | "PATCH";

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** HTTP statuses the global handler must not see; `true` exempts every failure. */
  exempt?: readonly number[] | true;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** This call replaces the session cookie (POST /auth/reauth): other calls wait for its answer. */
  rotatesSession?: boolean;
}

type Handler = (err: ApiError) => void;
let handler: Handler = () => {};

export function setErrorHandler(h: Handler): void {
  handler = h;
}

const UNSAFE = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/**
 * What every request carries: the stored bearer token, and the XSRF header on an unsafe method.
 * Also for the requests made outside `call` (file browsing, uploads).
 */
export function authHeaders(method: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (UNSAFE.has(method.toUpperCase())) {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers["X-XSRF-TOKEN"] = xsrf;
  }
  return headers;
}

// Plain fetch rather than a fetch library: this module is on the login page's first load (issue 11),
// and what it needs of one is the few lines below, written to answer as ofetch did before.

/** JSON goes out as JSON: plain objects, arrays, strings and numbers; FormData, Blob… as they are. */
function isJsonBody(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return ["string", "number", "boolean"].includes(typeof body);
  if (Array.isArray(body)) return true;
  if ("buffer" in body || body instanceof FormData || body instanceof URLSearchParams) return false;
  return body.constructor?.name === "Object" || typeof (body as { toJSON?: unknown }).toJSON === "function";
}

function withQuery(url: string, query: CallOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text ? `${url}${url.includes("?") ? "&" : "?"}${text}` : url;
}

const NO_BODY = new Set([101, 204, 205, 304]);
const JSON_TYPE = /^application\/(?:[\w!#$%&*.^`~-]*\+)?json$/i;
const TEXT_TYPES = new Set(["image/svg", "application/xml", "application/xhtml", "application/html"]);

/** The answer's body by its content type: JSON parsed (text that is not JSON stays text), text, else a Blob. */
async function readBody(answer: Response, method: Method): Promise<unknown> {
  if (!answer.body || NO_BODY.has(answer.status) || method === "HEAD") return undefined;
  const type = answer.headers.get("content-type")?.split(";")[0] ?? "";
  if (!type || JSON_TYPE.test(type)) {
    const text = await answer.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type === "text/event-stream") return answer.body;
  return TEXT_TYPES.has(type) || type.startsWith("text/") ? answer.text() : answer.blob();
}

/** One request: the answer and its body; an HTTP error status throws an ApiError built from the body. */
async function fetchAnswer(method: Method, url: string, opts: CallOptions) {
  const headers = new Headers(opts.headers);
  for (const [name, value] of Object.entries(authHeaders(method))) {
    // An Authorization the caller set itself is kept.
    if (name !== "Authorization" || !headers.has(name)) headers.set(name, value);
  }
  let body = opts.body as BodyInit | null | undefined;
  if (body && UNSAFE.has(method) && isJsonBody(body)) {
    if (typeof body !== "string") body = JSON.stringify(body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  const target = withQuery(url, opts.query);
  const answer = await fetch(target, {
    method,
    headers,
    body,
    signal: opts.signal,
    credentials: "same-origin",
  });
  const data = await readBody(answer, method);
  if (answer.status >= 400 && answer.status < 600)
    throw toApiError({ method, url: target, body: opts.body }, answer.status, answer.statusText, data);
  return { answer, data };
}

export function isExempt(exempt: CallOptions["exempt"], status: number | undefined): boolean {
  if (exempt === true) return true;
  return status !== undefined && !!exempt?.includes(status);
}

// The server revokes the old session when it rotates the cookie; a call sent with the old cookie
// meanwhile (a screen loading while boot re-authenticates) would come back 401 and end the session.
let rotating: Promise<void> | undefined;

export function call<T = unknown>(method: Method, url: string, opts: CallOptions = {}): Promise<T> {
  if (!opts.rotatesSession) return afterRotation(() => send<T>(method, url, opts));
  const answer = send<T>(method, url, opts);
  const done = answer.then(
    () => undefined,
    () => undefined,
  );
  rotating = done;
  void done.then(() => {
    if (rotating === done) rotating = undefined;
  });
  return answer;
}

async function afterRotation<T>(run: () => Promise<T>): Promise<T> {
  while (rotating) await rotating;
  return run();
}

/** Resolves once no rotation is in flight: for requests made outside `call` (file browsing, uploads). */
export const sessionSettled = (): Promise<void> => afterRotation(async () => undefined);

/** The status of a HEAD request: its answer is the status alone. */
export const headStatus = (url: string, opts: CallOptions = {}): Promise<number> =>
  afterRotation(() => send<number>("HEAD", url, opts, true));

const lastKnownCopies = new WeakMap<object, number>();

/**
 * When an answer was read, if it is the service worker's last-known copy (served offline, sw/);
 * undefined for a fresh answer.
 */
export const lastKnownAt = (answer: unknown): number | undefined =>
  answer && typeof answer === "object" ? lastKnownCopies.get(answer) : undefined;

async function send<T>(method: Method, url: string, opts: CallOptions, statusOnly = false): Promise<T> {
  try {
    const { answer, data } = await fetchAnswer(method, url, opts);
    if (statusOnly) {
      requestAnswered();
      return answer.status as T;
    }
    const keptAt = Number(answer.headers.get(LAST_KNOWN_AT_HEADER));
    if (keptAt > 0) {
      // The service worker's last-known copy: the panel did not answer.
      requestUnanswered();
      if (data && typeof data === "object") lastKnownCopies.set(data, keptAt);
    } else {
      requestAnswered();
    }
    return data as T;
  } catch (e) {
    // No answer at all (network down, aborted): an ApiError without a status.
    const err = isApiError(e)
      ? e
      : toApiError(
          { method, url: withQuery(url, opts.query), body: opts.body },
          undefined,
          undefined,
          undefined,
          e,
        );
    if (err.status !== undefined) requestAnswered();
    else if (!opts.signal?.aborted) requestUnanswered();
    if (!isExempt(opts.exempt, err.status) && !opts.signal?.aborted) handler(err);
    throw err;
  }
}

export const get = <T = unknown>(url: string, opts?: CallOptions) => call<T>("GET", url, opts);
export const post = <T = unknown>(url: string, body?: unknown, opts?: CallOptions) =>
  call<T>("POST", url, { ...opts, body });
export const put = <T = unknown>(url: string, body?: unknown, opts?: CallOptions) =>
  call<T>("PUT", url, { ...opts, body });
export const del = <T = unknown>(url: string, opts?: CallOptions) => call<T>("DELETE", url, opts);
