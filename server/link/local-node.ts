import type { DaemonEngine } from "../daemon/engine.ts";
import type { NodeClient, NodeFeatures } from "./node-client.ts";
import type { NodeServers } from "./server-wire.ts";

/** The node inside the panel process: calls go straight to its engine. */
export class LocalNode implements NodeClient {
  readonly nodeId = 0;
  readonly reachable = true;
  readonly servers: NodeServers;

  constructor(private readonly engine: DaemonEngine) {
    this.servers = engine.serverOps;
  }

  async health(): Promise<void> {}

  features(): Promise<NodeFeatures> {
    return this.engine.features();
  }
}
