import { i18n } from "@lingui/core";
import type { FetchError } from "ofetch";
import { toBcp47 } from "../i18n/locales";
import { backSince, requestAnswered, requestUnanswered, sentAt } from "../offline/network";
import { LAST_KNOWN_AT_HEADER } from "../offline/storage";
import { readCookie, XSRF_COOKIE } from "../state/cookies";
import { getToken } from "../state/token";
import { type ApiError, toApiError, WRONG_CODE } from "./errors";

// The one place that talks HTTP (spec §7–§8): same origin, cookies, bearer token when stored,
// XSRF header on unsafe methods, no timeout, no retries; failures go to the registered handler
// (unless exempt) and are then thrown. The HTTP library (ofetch, ./http) loads with the first call:
// the login page's first load goes without it (issue 41), and reads only the public config
// (getPublic) before that.

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

/** What a call's request carries besides its own headers: auth, XSRF, the page's language. */
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

let library: Promise<typeof import("./http")> | undefined;

/**
 * The HTTP library, fetched once (again after a failed fetch: offline, a new version deployed).
 * Screens may ask for it early (the login form does when it is first touched).
 */
export function loadHttp(): Promise<typeof import("./http")> {
  library ??= import("./http").catch((e: unknown) => {
    library = undefined;
    throw e;
  });
  return library;
}

/**
 * A public JSON answer (GET /api/config at boot), read with the browser's fetch before the HTTP
 * library has loaded. No error handler, no envelope: any failure (no answer, an error status, not
 * JSON) rejects and the caller falls back. It tells the network watch whether the panel answered.
 */
export async function getPublic<T>(url: string): Promise<T> {
  const sent = sentAt();
  let answer: Response;
  try {
    answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch (e) {
    requestUnanswered(sent);
    throw e;
  }
  requestAnswered();
  if (!answer.ok) throw new Error(`${url}: HTTP ${answer.status}`);
  return (await answer.json()) as T;
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
    const { http } = await loadHttp();
    const request = {
      method,
      body: opts.body as BodyInit | Record<string, unknown> | undefined,
      query: opts.query,
      headers: requestHeaders(method, opts.headers),
      signal: opts.signal,
    };
    if (statusOnly) {
      const status = (await http.raw(url, request)).status as T;
      requestAnswered();
      return status;
    }
    const answer = await http.raw<T>(url, request);
    const keptAt = Number(answer.headers.get(LAST_KNOWN_AT_HEADER));
    if (keptAt > 0) {
      // Sent offline, but the network is back by now: ask again rather than show an old copy.
      if (backSince(sent)) return send<T>(method, url, opts, statusOnly);
      // The service worker's last-known copy: the panel did not answer.
      requestUnanswered(sent);
      if (answer._data && typeof answer._data === "object") lastKnownCopies.set(answer._data, keptAt);
    } else {
      requestAnswered();
    }
    return answer._data as T;
  } catch (e) {
    // ofetch's error: the request got an answer (status), or none. A library that failed to load
    // counts as no answer.
    const fe = e instanceof Error && e.name === "FetchError" ? (e as FetchError) : undefined;
    if (fe?.status !== undefined) requestAnswered();
    else if (!opts.signal?.aborted) requestUnanswered(sent);
    const err = toApiError(
      { method, url: fe?.request?.toString() ?? url, body: opts.body },
      fe?.status,
      fe?.statusText,
      fe?.data,
      e,
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
