import { ApiError } from "../errors.ts";
import { signNodeToken } from "./node-token.ts";

export interface RemoteNodeAddress {
  nodeId: number;
  secret: string;
  /** http(s)://privateHost:privatePort */
  baseUrl: string;
}

export interface CallOptions {
  json?: unknown;
  text?: string;
  timeoutMs?: number;
  /** Health checks go out even while the node is known to be down. */
  evenIfDown?: boolean;
}

/**
 * Signed HTTP calls to one node's daemon. Every call carries a fresh token
 * for this node and is bounded by a timeout. Once the node is known to be
 * down, a call first probes it with a one-second health check and fails with
 * ErrNodeUnreachable when that fails, instead of waiting for the full timeout.
 */
export class NodeHttp {
  /** Unknown until the first contact; only a node known to be down fails fast. */
  state: "unknown" | "up" | "down" = "unknown";

  constructor(
    readonly address: RemoteNodeAddress,
    private readonly timeoutMs = 5000,
  ) {}

  token(): string {
    return signNodeToken(this.address.nodeId, this.address.secret);
  }

  unreachable(): ApiError {
    return new ApiError(502, "ErrNodeUnreachable", "node ${node} cannot be reached", {
      node: this.address.nodeId,
    });
  }

  async call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
    if (this.state === "down" && !opts.evenIfDown) {
      await this.call("GET", "/daemon", { timeoutMs: 1000, evenIfDown: true });
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.token()}` };
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.text !== undefined) {
      headers["content-type"] = "text/plain";
      body = opts.text;
    }
    let res: Response;
    try {
      res = await fetch(this.address.baseUrl + path, {
        method,
        headers,
        body,
        signal: opts.timeoutMs === 0 ? undefined : AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      });
    } catch {
      this.state = "down";
      throw this.unreachable();
    }
    this.state = "up";
    const text = await res.text();
    const parsed =
      text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : undefined;
    if (!res.ok) {
      if (res.status === 401) {
        // The node does not accept our signature: a wrong secret in its config.
        throw new ApiError(502, "ErrNodeRefused", "node ${node} refused the panel's credentials", {
          node: this.address.nodeId,
        });
      }
      const error = parsed?.error;
      throw new ApiError(res.status, error?.code ?? "ErrUnknownError", error?.msg, error?.metadata);
    }
    return parsed as T;
  }
}
