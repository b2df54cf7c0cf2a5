import fastifyWebsocket from "@fastify/websocket";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { ApiError } from "../errors.ts";
import { frameworkErrors, installErrorHandler } from "../http/error-handler.ts";
import { installJsonBodyParser } from "../http/json-body.ts";
import { logFormat, logStream } from "../http/log-output.ts";
import { serializeRequest } from "../http/log-redaction.ts";
import { daemonSchemaController } from "../http/schema-compilers.ts";
import { verifyNodeToken } from "../link/node-token.ts";
import { daemonBackupRoutes } from "./backups/backup-routes.ts";
import type { DaemonConfig } from "./config.ts";
import type { DaemonEngine } from "./engine.ts";
import { daemonFileRoutes } from "./files/file-routes.ts";
import { daemonQueryRoutes } from "./query/query-routes.ts";
import { daemonServerRoutes } from "./server-routes.ts";
import { daemonSftpRoutes } from "./sftp/sftp-routes.ts";

/**
 * The daemon's own HTTP API under /daemon, spoken by the panel's RemoteNode.
 * Only `GET /daemon` (health) is open; everything else needs a token the
 * panel signed for this node. Refusals are logged by reason, never with the
 * token.
 */
export async function buildDaemonApp(
  engine: DaemonEngine,
  config: DaemonConfig,
  logLevel = "info",
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: logLevel,
      redact: ["req.headers.authorization"],
      serializers: { req: serializeRequest },
      stream: logStream(logFormat()),
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    logController: new LogController({ disableRequestLogging: logLevel !== "debug" }),
    schemaController: daemonSchemaController,
  });
  installErrorHandler(app);
  installJsonBodyParser(app);

  app.addHook("onRequest", async (request) => {
    const url = request.url.split("?")[0];
    if (url === "/daemon" || url === "/daemon/") return;
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
    const problem = match ? verifyNodeToken(match[1], config.nodeId, config.secret) : "missing";
    if (problem) {
      request.log.warn({ reason: problem, url }, "refused a call without a valid panel token");
      throw new ApiError(401, "ErrTokenInvalid", "a valid panel token is required");
    }
  });

  await app.register(fastifyWebsocket);

  app.get("/daemon", async () => ({ message: "daemon is running" }));
  app.get("/daemon/features", async () => engine.features());
  daemonServerRoutes(app, engine.serverOps);
  daemonFileRoutes(app, engine.fileOps);
  daemonBackupRoutes(app, engine.backupOps);
  daemonQueryRoutes(app, engine.queryOps);
  daemonSftpRoutes(app, engine.sftpSessions);

  app.setNotFoundHandler(async () => {
    throw new ApiError(404, "ErrNotFound", "no such endpoint");
  });
  return app;
}
