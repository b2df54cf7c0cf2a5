import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DaemonEngine } from "../../server/daemon/engine.ts";
import { LocalNode } from "../../server/link/local-node.ts";
import type { NodeClient } from "../../server/link/node-client.ts";
import { RemoteNode } from "../../server/link/remote-node.ts";
import { productVersion } from "../../server/version.ts";
import { startDaemon } from "./daemon-process.ts";
import { freePort } from "./free-port.ts";

/** A node a contract test talks to through the NodeClient seam. */
export interface NodeUnderTest {
  client: NodeClient;
  /** Where the node keeps its data: a server's files are in `servers/<id>` below it. */
  dataDir: string;
  close(): Promise<void>;
}

/** Node settings a test may choose. */
export interface NodeOptions {
  /** The Docker engine's socket (the node's dockerSocket setting). */
  dockerSocket?: string;
}

/**
 * The two NodeClient implementations one contract runs against, by name:
 * the in-process LocalNode on a fresh data folder, and a RemoteNode talking
 * to a real daemon on loopback (its panel address leads nowhere).
 */
export const nodeImplementations: Record<string, (options?: NodeOptions) => Promise<NodeUnderTest>> = {
  LocalNode: async (options = {}) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-local-node-"));
    const engine = new DaemonEngine({
      dataDir: dir,
      version: productVersion,
      dockerSocket: options.dockerSocket,
    });
    return {
      client: new LocalNode(engine),
      dataDir: dir,
      close: async () => {
        await engine.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  RemoteNode: async (options = {}) => {
    const secret = randomBytes(32).toString("hex");
    const daemon = await startDaemon({
      nodeId: 7,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
      dockerSocket: options.dockerSocket,
    });
    return {
      client: new RemoteNode({ nodeId: 7, secret, baseUrl: daemon.baseUrl }),
      dataDir: daemon.config.dataDir,
      close: () => daemon.destroy(),
    };
  },
};
