import { ApiError } from "../errors.ts";
import type { NodeClient, NodeFeatures } from "./node-client.ts";
import { signNodeToken } from "./node-token.ts";

export interface RemoteNodeAddress {
  nodeId: number;
  secret: string;
  /** http(s)://privateHost:privatePort */
  baseUrl: string;
}

/**
 * A node reached over the daemon's HTTP API. Every call is signed for this
 * node and bounded by a timeout. Once the node is known to be down, a call
 * first probes it with a one-second health check and fails with
 * ErrNodeUnreachable when that fails, instead of waiting for the full timeout.
 */
export class RemoteNode implements NodeClient {
  readonly nodeId: number;
  /** Unknown until the first contact; only a node known to be down fails fast. */
  private state: "unknown" | "up" | "down" = "unknown";

  constructor(
    private readonly address: RemoteNodeAddress,
    private readonly timeoutMs = 5000,
  ) {
    this.nodeId = address.nodeId;
  }

  get reachable(): boolean {
    return this.state === "up";
  }

  async health(): Promise<void> {
    await this.call("GET", "/daemon", { timeoutMs: Math.min(this.timeoutMs, 2000), evenIfDown: true });
  }

  features(): Promise<NodeFeatures> {
    return this.call<NodeFeatures>("GET", "/daemon/features");
  }

  private unreachable(): ApiError {
    return new ApiError(502, "ErrNodeUnreachable", "node ${node} cannot be reached", { node: this.nodeId });
  }

  private async call<T>(
    method: string,
    path: string,
    opts: { body?: unknown; timeoutMs?: number; evenIfDown?: boolean } = {},
  ): Promise<T> {
    if (this.state === "down" && !opts.evenIfDown) {
      await this.call("GET", "/daemon", { timeoutMs: 1000, evenIfDown: true });
    }
    let res: Response;
    try {
      res = await fetch(this.address.baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${signNodeToken(this.nodeId, this.address.secret)}`,
          ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      });
    } catch {
      this.state = "down";
      throw this.unreachable();
    }
    this.state = "up";
    const text = await res.text();
    const body =
      text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const error = body?.error;
      if (res.status === 401) {
        // The node does not accept our signature: a wrong secret in its config.
        throw new ApiError(502, "ErrNodeRefused", "node ${node} refused the panel's credentials", {
          node: this.nodeId,
        });
      }
      throw new ApiError(res.status, error?.code ?? "ErrUnknownError", error?.msg, error?.metadata);
    }
    return body as T;
  }
}
