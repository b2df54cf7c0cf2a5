import { i18n } from "@lingui/core";
import { toBcp47 } from "../i18n/locales";
import { backSince, requestAnswered, requestUnanswered, sentAt } from "../offline/network";
import { LAST_KNOWN_AT_HEADER } from "../offline/storage";
import { readCookie, XSRF_COOKIE } from "../state/cookies";
import { getToken } from "../state/token";
import { type ApiError, toApiError, WRONG_CODE } from "./errors";

// The one place that talks HTTP (spec §7–§8): same origin, cookies, bearer token when stored,
// XSRF header on unsafe methods, no timeout, no retries; failures go to the registered handler
// (unless exempt) and are then thrown. Plain fetch (ofetch and its URL and JSON helpers were a
// tenth of the login page's JavaScript).

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
  /**
   * The call sends a one-time or recovery code. The panel answers a wrong one with the reference's
   * ErrInvalidCredentials; here it becomes ErrWrongCode, so the user reads that the code is wrong.
   */
  sendsCode?: boolean;
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

/** What every call's request carries besides its own headers: auth, XSRF, the page's language. */
function requestHeaders(method: string, own: Record<string, string> | undefined): Headers {
  const headers = new Headers(own);
  for (const [name, value] of Object.entries(authHeaders(method))) {
    // An Authorization the caller set itself is kept.
    if (name !== "Authorization" || !headers.has(name)) headers.set(name, value);
  }
  // The page's language, not the browser's: the panel answers texts it owns (starter templates) in it.
  if (i18n.locale) headers.set("Accept-Language", toBcp47(i18n.locale));
  return headers;
}

/** A plain object, an array, a string or a number goes as JSON; FormData, Blob and the like as they are. */
function asJson(body: unknown): boolean {
  if (body === null || ["string", "number", "boolean"].includes(typeof body)) return true;
  if (typeof body !== "object" || (body as { buffer?: unknown }).buffer) return false;
  return (
    Array.isArray(body) ||
    body.constructor === Object ||
    typeof (body as { toJSON?: unknown }).toJSON === "function"
  );
}

function withQuery(url: string, query: CallOptions["query"]): string {
  if (!query) return url;
  const at = url.indexOf("?");
  const params = new URLSearchParams(at < 0 ? "" : url.slice(at + 1));
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return (at < 0 ? url : url.slice(0, at)) + (search ? `?${search}` : "");
}

/** The answer's body: JSON (or an answer without a type) parsed, text as text, other types as a Blob. */
async function readBody(response: Response, method: string): Promise<unknown> {
  if (method === "HEAD" || [101, 204, 205, 304].includes(response.status) || !response.body) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (!type || /^application\/([\w!#$%&*.^`~-]*\+)?json(;.*)?$/i.test(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (/^text\/|^image\/svg|^application\/(xml|xhtml|html)/i.test(type)) return response.text();
  return response.blob();
}

/** A request that got an answer, and the failure it was (status 400 and over), or no answer at all. */
class HttpFailure extends Error {
  constructor(
    readonly status?: number,
    readonly statusText?: string,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(status ? `HTTP ${status}` : "no answer", options);
  }
}

async function fetchAnswer(
  method: Method,
  url: string,
  opts: CallOptions,
): Promise<{ response: Response; data: unknown }> {
  const headers = requestHeaders(method, opts.headers);
  let body = opts.body as BodyInit | undefined;
  if (body !== undefined && method !== "GET" && method !== "HEAD" && asJson(body)) {
    if (typeof body !== "string") body = JSON.stringify(body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  let response: Response;
  try {
    response = await fetch(withQuery(url, opts.query), {
      method,
      body,
      headers,
      signal: opts.signal,
      credentials: "same-origin",
    });
  } catch (cause) {
    throw new HttpFailure(undefined, undefined, undefined, { cause });
  }
  const data = await readBody(response, method).catch(() => undefined);
  if (response.status >= 400) throw new HttpFailure(response.status, response.statusText, data);
  return { response, data };
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
  const sent = sentAt();
  try {
    const { response, data } = await fetchAnswer(method, url, opts);
    if (statusOnly) {
      requestAnswered();
      return response.status as T;
    }
    const keptAt = Number(response.headers.get(LAST_KNOWN_AT_HEADER));
    if (keptAt > 0) {
      // Sent offline, but the network is back by now: ask again rather than show an old copy.
      if (backSince(sent)) return send<T>(method, url, opts, statusOnly);
      // The service worker's last-known copy: the panel did not answer.
      requestUnanswered(sent);
      if (data && typeof data === "object") lastKnownCopies.set(data, keptAt);
    } else {
      requestAnswered();
    }
    return data as T;
  } catch (e) {
    const fe = e instanceof HttpFailure ? e : undefined;
    if (fe?.status !== undefined) requestAnswered();
    else if (!opts.signal?.aborted) requestUnanswered(sent);
    const err = toApiError(
      { method, url, body: opts.body },
      fe?.status,
      fe?.statusText,
      fe?.data,
      fe?.cause ?? e,
    );
    if (opts.sendsCode && err.code === "ErrInvalidCredentials") err.code = WRONG_CODE;
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
