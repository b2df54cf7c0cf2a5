import type { IncomingMessage } from "node:http";
import { NodeFeatures } from "../contract/node/features.ts";
import { verifyNodeToken } from "../contract/node/node-token.ts";
import { ApiError } from "../errors.ts";
import { daemonBackupRoutes } from "./backups/backup-routes.ts";
import { checksOwnAnswers, type DaemonConfig } from "./config.ts";
import type { DaemonEngine } from "./engine.ts";
import { daemonEventRoutes } from "./events/event-routes.ts";
import { daemonFileRoutes } from "./files/file-routes.ts";
import { daemonHistoryRoutes } from "./history/history-routes.ts";
import { HttpServer } from "./http/http-server.ts";
import type { Logger } from "./http/logger.ts";
import { Router } from "./http/router.ts";
import { daemonLiveRoutes } from "./live/live-routes.ts";
import { daemonModRoutes } from "./mods/mod-routes.ts";
import { daemonQueryRoutes } from "./query/query-routes.ts";
import { daemonRconRoutes } from "./rcon/rcon-routes.ts";
import { daemonServerRoutes } from "./server-routes.ts";
import { daemonSftpRoutes } from "./sftp/sftp-routes.ts";
import { daemonTaskRoutes } from "./tasks/task-routes.ts";
import { daemonTransferRoutes, isTransferExportPath } from "./transfers/transfer-routes.ts";

/**
 * The daemon's own HTTP API under /daemon, spoken by the panel's RemoteNode.
 * Only `GET /daemon` (health) is open; everything else needs a token the
 * panel signed for this node. Refusals are logged by reason, never with the
 * token. Served with node:http and a small router of its own (no Fastify):
 * a node's idle memory is what its host gives up for the game servers.
 */
export function buildDaemonServer(engine: DaemonEngine, config: DaemonConfig, log: Logger): HttpServer {
  const router = new Router();
  // The open health check: the panel reads only that it answers, and it must stay light.
  router.get("/daemon", {}, () => ({ message: "daemon is running" }));
  router.get("/daemon/features", { answer: NodeFeatures }, () => engine.features());
  daemonServerRoutes(router, engine.serverOps);
  daemonFileRoutes(router, engine.fileOps);
  daemonBackupRoutes(router, engine.backupOps);
  daemonQueryRoutes(router, engine.queryOps);
  daemonRconRoutes(router, engine.rconOps);
  daemonModRoutes(router, engine.modOps);
  daemonSftpRoutes(router, engine.sftpSessions);
  daemonTaskRoutes(router, engine.taskOps);
  daemonHistoryRoutes(router, engine.historyOps);
  daemonEventRoutes(router, engine.events);
  daemonLiveRoutes(router, engine.live, engine.events);
  daemonTransferRoutes(router, engine.transferOps);

  const authorize = (request: IncomingMessage, path: string, requestLog: Logger) => {
    if (path === "/daemon" || path === "/daemon/") return;
    // Another node fetching a server: it holds the source's grant, not a panel token (checked by the route).
    if (isTransferExportPath(path)) return;
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
    const problem = match ? verifyNodeToken(match[1], config.nodeId, config.secret) : "missing";
    if (problem) {
      requestLog.warn({ reason: problem, url: path }, "refused a call without a valid panel token");
      throw new ApiError(401, "ErrTokenInvalid", "a valid panel token is required");
    }
  };
  return new HttpServer({ router, log, authorize, checkAnswers: checksOwnAnswers() });
}
