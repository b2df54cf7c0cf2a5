import fs from "node:fs";
import { ApiError } from "../errors.ts";
import type { Api, RouteContext } from "./types.ts";

/**
 * GET /daemon/bundle: the self-contained daemon (one .mjs file) for a node's
 * host, so a node needs no checkout. The caller shows a node's secret as a
 * bearer token, as nodes do when they ask the panel to check an SFTP
 * sign-in; the file holds no secret, but only nodes have a use for it.
 */
export function daemonBundleRoutes(app: Api, { services }: RouteContext): void {
  app.get("/daemon/bundle", async (request, reply) => {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
    const nodeId = bearer ? await services.sftpAuth.nodeBySecret(bearer[1]) : undefined;
    if (nodeId === undefined) {
      reply.header("WWW-Authenticate", "Bearer");
      throw new ApiError(401, "ErrTokenInvalid", "a node's secret is needed as the bearer token");
    }
    const file = services.config.daemonBundle;
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile())
      throw new ApiError(404, "ErrNotFound", "the daemon bundle has not been built (npm run build)");
    request.log.info(`daemon bundle sent to node ${nodeId}`);
    return reply
      .header("Content-Type", "text/javascript; charset=utf-8")
      .header("Content-Disposition", 'attachment; filename="outpost-daemon.mjs"')
      .header("Content-Length", String(stat.size))
      .header("Cache-Control", "no-store")
      .send(fs.createReadStream(file));
  });
}
