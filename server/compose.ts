import path from "node:path";
import type { PanelConfig } from "./config.ts";
import { DaemonEngine } from "./daemon/engine.ts";
import type { Db } from "./db/database.ts";
import { LocalNode } from "./link/local-node.ts";
import { createServices, type PanelServices } from "./panel/services.ts";
import { productVersion } from "./version.ts";

/** A panel's services and, when it runs one, the engine of its local node. */
export interface ComposedPanel {
  services: PanelServices;
  /** Started, stopped and given its SFTP listener by `outpost serve`; the services see only its NodeClient. */
  localEngine: DaemonEngine | undefined;
}

/**
 * The composition root: the one place where the panel and the daemon engine
 * meet. The engine is wrapped in a LocalNode here, so that nothing in
 * server/panel or server/api imports the daemon (DESIGN.md, "One path for data").
 */
export function composePanel(config: PanelConfig, db: Db): ComposedPanel {
  const localEngine = config.localNode
    ? new DaemonEngine({
        dataDir: path.join(config.dataDir, "node"),
        version: productVersion,
        dockerSocket: config.dockerSocket,
        allowUnsandboxed: config.node.allowUnsandboxed,
        allowUnlimitedSwap: config.node.allowUnlimitedSwap,
        allowOpenLoopback: config.node.allowOpenLoopback,
        statsSampleMs: config.node.statsSampleMs,
        diskCheckMs: config.node.diskCheckMs,
        watchdogMs: config.node.watchdogMs,
        extractMaxRatio: config.node.extractMaxRatio,
      })
    : undefined;
  const localNode = localEngine && { client: new LocalNode(localEngine), sftpPort: config.sftpPort };
  return { services: createServices(config, db, localNode), localEngine };
}
