import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { Static, TSchema } from "typebox";
import { signNodeToken } from "../contract/node/node-token.ts";
import { ApiError, type ErrorMetadata, errors } from "../errors.ts";
import { firstBreak } from "../http/schema-check.ts";

export interface RemoteNodeAddress {
  nodeId: number;
  secret: string;
  /** http(s)://privateHost:privatePort */
  baseUrl: string;
}

export interface NodeCallOptions {
  json?: unknown;
  text?: string;
  timeoutMs?: number;
  /** Health checks go out even while the node is known to be down. */
  evenIfDown?: boolean;
  /** Gives the call up (the panel's own client went away): the node sees its request closed. */
  signal?: AbortSignal;
}

export interface StreamOptions {
  /** A Readable is streamed; other bodies are sent as they are. */
  body?: BodyInit | Readable | null;
  headers?: Record<string, string>;
  /** 0: no limit (a transfer of many gigabytes). */
  timeoutMs?: number;
  evenIfDown?: boolean;
}

/**
 * Signed HTTP calls to one node's daemon. Every call carries a fresh token
 * for this node and is bounded by a timeout. Once the node is known to be
 * down, a call first probes it with a one-second health check and fails with
 * ErrNodeUnreachable when that fails, instead of waiting for the full timeout.
 *
 * Calls go over this node's own pool of one keep-alive connection: calls made
 * side by side (a health check beside a start) queue on it instead of each
 * opening one, so with the live stream the panel holds two connections to the
 * node. (A pool of node:http: undici, which would give fetch one, is not a
 * dependency here.) Calls allowed longer than the usual bound (mayLast) go
 * on a connection of their own while they last; streamed calls (file
 * transfers, backups: stream()) over fetch's own pool: they can last minutes
 * and must not hold the other calls up.
 */
export class NodeHttp {
  /** Unknown until the first contact; only a node known to be down fails fast. */
  state: "unknown" | "up" | "down" = "unknown";
  /** Times a call got an answer while the state was not "up" (NodeClient.comebacks). */
  comebacks = 0;

  /** The one connection calls share (see above). */
  private readonly pool: http.Agent;
  /** For calls that may last (mayLast): a connection each, closed when it ends. */
  private readonly apart: http.Agent;

  constructor(
    readonly address: RemoteNodeAddress,
    private readonly timeoutMs = 5000,
  ) {
    const Agent = address.baseUrl.startsWith("https:") ? https.Agent : http.Agent;
    this.pool = new Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 });
    this.apart = new Agent({ keepAlive: false });
  }

  token(): string {
    return signNodeToken(this.address.nodeId, this.address.secret);
  }

  /** `cause`: what the attempt failed with (a refused connection, a timeout), for the log. */
  unreachable(cause?: unknown): ApiError {
    return new ApiError(
      502,
      "ErrNodeUnreachable",
      "node ${node} cannot be reached",
      { node: this.address.nodeId },
      cause === undefined ? undefined : { cause },
    );
  }

  /**
   * One JSON call. With `answer` (the route's schema in server/contract/node)
   * the node's answer is checked against it and handed back typed; one that
   * breaks it is 502 ErrNodeAnswer naming the node, the path and the field.
   * Without, the answer is not read (a 204, or one the caller has no use for).
   */
  call(method: string, path: string, opts?: NodeCallOptions & { answer?: undefined }): Promise<void>;
  call<S extends TSchema>(
    method: string,
    path: string,
    opts: NodeCallOptions & { answer: S },
  ): Promise<Static<S>>;
  async call(
    method: string,
    path: string,
    opts: NodeCallOptions & { answer?: TSchema } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.text !== undefined) {
      headers["content-type"] = "text/plain";
      body = opts.text;
    }
    const res = await this.exchange(method, path, opts, headers, body);
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = text && res.contentType.includes("json") ? JSON.parse(text) : undefined;
    } catch {
      if (res.ok && opts.answer) throw errors.nodeAnswer(this.address.nodeId, pathOnly(path), "");
      parsed = undefined;
    }
    if (!res.ok) throw this.failure(res.status, parsed as Parameters<NodeHttp["failure"]>[1]);
    if (!opts.answer) return undefined;
    return this.checked(opts.answer, parsed, path);
  }

  /** A node's answer to `path`, once it keeps its schema; ErrNodeAnswer otherwise (see call). */
  async checked<S extends TSchema>(schema: S, answer: unknown, path: string): Promise<Static<S>> {
    const broken = await firstBreak(schema, answer);
    if (broken) throw errors.nodeAnswer(this.address.nodeId, pathOnly(path), broken.path);
    return answer as Static<S>;
  }

  /**
   * A call whose body or answer is a stream (file transfers, backups): the
   * request body is sent as it is read, and a 2xx Response is handed back
   * unread. A failed answer throws as call() does. The timeout covers the
   * whole transfer unless it is 0.
   */
  async stream(method: string, path: string, opts: StreamOptions = {}): Promise<Response> {
    const res = await this.send(method, path, opts);
    if (!res.ok) {
      const text = await res.text();
      let parsed: { error?: { code?: string; msg?: string; metadata?: ErrorMetadata } } | undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      throw this.failure(res.status, parsed);
    }
    return res;
  }

  /**
   * A call allowed longer than the node's usual bound (no bound: a start that waits for the server
   * to be up; a deletion of minutes) goes on a connection of its own, closed when it ends (none
   * kept): on the one connection it would hold the health checks up past their 2 s and have the
   * node taken for down.
   */
  private mayLast(opts: NodeCallOptions): boolean {
    return opts.timeoutMs === 0 || (opts.timeoutMs ?? this.timeoutMs) > this.timeoutMs;
  }

  /** One call on the pool's connection, its answer read whole (within the call's timeout). */
  private async exchange(
    method: string,
    path: string,
    opts: NodeCallOptions,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ ok: boolean; status: number; contentType: string; text: string }> {
    await this.probeIfDown(opts);
    const all: Record<string, string | number> = { ...headers, authorization: `Bearer ${this.token()}` };
    if (body !== undefined) all["content-length"] = Buffer.byteLength(body);
    const url = new URL(this.address.baseUrl + path);
    const client = url.protocol === "https:" ? https : http;
    let answer: { ok: boolean; status: number; contentType: string; text: string };
    try {
      answer = await new Promise((resolve, reject) => {
        const signal = signalOf(opts, this.timeoutMs);
        // A health check never queues behind another call on the one connection: a slow answer
        // there (a big folder's listing) would have the node taken for down.
        const agent = this.mayLast(opts) || opts.evenIfDown ? this.apart : this.pool;
        const req = client.request(url, { method, headers: all, agent, signal }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            const contentType = String(res.headers["content-type"] ?? "");
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ ok: status >= 200 && status < 300, status, contentType, text });
          });
        });
        req.on("error", reject);
        req.end(body);
      });
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      this.state = "down";
      throw this.unreachable(error);
    }
    this.reached();
    return answer;
  }

  private async probeIfDown(opts: { evenIfDown?: boolean }): Promise<void> {
    if (this.state === "down" && !opts.evenIfDown) {
      await this.call("GET", "/daemon", { timeoutMs: 1000, evenIfDown: true });
    }
  }

  private reached(): void {
    if (this.state !== "up") this.comebacks++;
    this.state = "up";
  }

  private async send(
    method: string,
    path: string,
    opts: NodeCallOptions & { headers?: Record<string, string>; body?: BodyInit | Readable | null },
  ): Promise<Response> {
    await this.probeIfDown(opts);
    const headers: Record<string, string> = { ...opts.headers, authorization: `Bearer ${this.token()}` };
    const streamed = opts.body instanceof Readable;
    // A streamed body that fails (the browser cancelled its upload) is not the node being down.
    let bodyError: unknown;
    if (streamed) (opts.body as Readable).once("error", (error) => (bodyError ??= error));
    let res: Response;
    try {
      res = await fetch(this.address.baseUrl + path, {
        method,
        headers,
        body: streamed ? (Readable.toWeb(opts.body as Readable) as ReadableStream) : (opts.body as BodyInit),
        // Node's fetch sends a stream only half-duplex (the answer comes after the whole body).
        ...(streamed ? { duplex: "half" } : {}),
        signal: signalOf(opts, this.timeoutMs),
      } as RequestInit);
    } catch (error) {
      if (bodyError !== undefined) throw bodyError;
      if (opts.signal?.aborted) throw opts.signal.reason;
      this.state = "down";
      throw this.unreachable(error);
    }
    this.reached();
    return res;
  }

  private failure(
    status: number,
    parsed: { error?: { code?: string; msg?: string; metadata?: ErrorMetadata } } | undefined,
  ): ApiError {
    if (status === 401) {
      // The node does not accept our signature: a wrong secret in its config.
      return new ApiError(502, "ErrNodeRefused", "node ${node} refused the panel's credentials", {
        node: this.address.nodeId,
      });
    }
    const error = parsed?.error;
    return new ApiError(status, error?.code ?? "ErrUnknownError", error?.msg, error?.metadata);
  }
}

/** A daemon path without its query (which may hold a file name). */
const pathOnly = (path: string) => path.split("?")[0];

/** The call's timeout (none when 0), joined with the caller's own signal. */
function signalOf(opts: NodeCallOptions, defaultMs: number): AbortSignal | undefined {
  const timeout = opts.timeoutMs === 0 ? undefined : AbortSignal.timeout(opts.timeoutMs ?? defaultMs);
  const signals = [timeout, opts.signal].filter((s): s is AbortSignal => s !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}
