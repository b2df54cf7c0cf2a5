import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import Fastify, {
  type FastifyInstance,
  type FastifyPluginCallback,
  type FastifyPluginOptions,
  LogController,
} from "fastify";
import { activityRoutes } from "./api/activity.ts";
import { allocationRoutes } from "./api/allocations.ts";
import { apiDocsRoutes } from "./api/api-docs.ts";
import { authRoutes } from "./api/auth.ts";
import { backupRoutes } from "./api/backups.ts";
import { configRoutes } from "./api/config.ts";
import { daemonBundleRoutes } from "./api/daemon-bundle.ts";
import { databaseHostRoutes } from "./api/database-hosts.ts";
import { fileRoutes } from "./api/files.ts";
import { healthRoutes } from "./api/health.ts";
import { liveRoutes } from "./api/live.ts";
import { nodeRoutes } from "./api/nodes.ts";
import { notificationRoutes } from "./api/notifications.ts";
import { oauth2Routes } from "./api/oauth2.ts";
import { oidcRoutes } from "./api/oidc.ts";
import { openApiRoutes } from "./api/openapi.ts";
import { passkeyRoutes } from "./api/passkeys.ts";
import { permissionPresetRoutes } from "./api/permission-presets.ts";
import { installActivityLog } from "./api/pipeline/activity-hook.ts";
import { installAuthRequestRules } from "./api/pipeline/auth-requests.ts";
import { installCompression } from "./api/pipeline/compression.ts";
import { CookieJar } from "./api/pipeline/cookies.ts";
import { frameworkErrors, installErrorHandler } from "./api/pipeline/error-handler.ts";
import { installGuard } from "./api/pipeline/guard.ts";
import { lazyChildLogger } from "./api/pipeline/lazy-logger.ts";
import { collectOpenApi } from "./api/pipeline/openapi.ts";
import { installRequestDecoding } from "./api/pipeline/request-encoding.ts";
import { panelSchemaController } from "./api/pipeline/schema-compilers.ts";
import { installNulGuard } from "./api/pipeline/validation.ts";
import { installWebApp } from "./api/pipeline/web-app.ts";
import { installWebSockets } from "./api/pipeline/websocket.ts";
import { installXsrf } from "./api/pipeline/xsrf.ts";
import { playerRoutes } from "./api/players.ts";
import { queryRoutes } from "./api/query.ts";
import { roleRoutes } from "./api/roles.ts";
import { selfRoutes } from "./api/self.ts";
import { selfClientRoutes } from "./api/self-clients.ts";
import { selfOtpRoutes } from "./api/self-otp.ts";
import { selfSshKeyRoutes } from "./api/self-ssh-keys.ts";
import { serverClientRoutes } from "./api/server-clients.ts";
import { serverDatabaseRoutes } from "./api/server-databases.ts";
import { serverLimitRoutes } from "./api/server-limits.ts";
import { serverModRoutes } from "./api/server-mods.ts";
import { serverSocketRoutes } from "./api/server-socket.ts";
import { serverUserRoutes } from "./api/server-users.ts";
import { serverRoutes } from "./api/servers.ts";
import { settingsRoutes } from "./api/settings.ts";
import { statsHistoryRoutes } from "./api/stats-history.ts";
import { taskRoutes } from "./api/tasks.ts";
import { templateRoutes } from "./api/templates.ts";
import { themeRoutes } from "./api/themes.ts";
import { transferRoutes } from "./api/transfers.ts";
import type { RouteContext } from "./api/types.ts";
import { userRoutes } from "./api/users.ts";
import { webManifestRoutes } from "./api/web-manifest.ts";
import type { PanelConfig } from "./config.ts";
import { installJsonBodyParser } from "./http/json-body.ts";
import { logStream } from "./http/log-output.ts";
import { serializeRequest } from "./http/log-redaction.ts";
import { beforeReads } from "./panel/activity-before.ts";
import type { PanelServices } from "./panel/services.ts";

export const apiVersion = "3.0.0-outpost";

/** The panel's HTTP server: API, auth, OAuth2 and the web app on one origin. */
export async function buildApp(config: PanelConfig, services: PanelServices): Promise<FastifyInstance> {
  const logRequests = config.log.level === "debug";
  const app = Fastify({
    logger: {
      level: config.log.level,
      stream: logStream(config.log.format, process.stdout, config.log.colour),
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      serializers: { req: serializeRequest },
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    logController: new LogController({ disableRequestLogging: !logRequests }),
    childLoggerFactory: lazyChildLogger,
    schemaController: panelSchemaController,
  });
  installErrorHandler(app);
  installJsonBodyParser(app);

  await app.register(withoutRangeCheck(fastifyCookie));
  await app.register(withoutRangeCheck(fastifyFormbody));
  installWebSockets(app, { maxPayload: 64 * 1024 });
  installCompression(app);
  installRequestDecoding(app);

  const cookies = new CookieJar(config.cookiePrefix, config.publicUrl?.startsWith("https:") ?? false);
  installXsrf(app, cookies);
  installAuthRequestRules(app);
  installNulGuard(app);
  installGuard(app, services, cookies);
  installActivityLog(app, services.activity, beforeReads(services));
  collectOpenApi(app);

  // Callback-style, not async: it runs on every answer, and a promise per hook is a cost there.
  // Header names in lower case, as Fastify keeps them: it then has no new string to make for each.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.url.startsWith("/api/")) {
      // API answers are never cached, but for the few that say otherwise (the docs page's files).
      if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
      reply.header("x-api-version", apiVersion);
    }
    reply.header("x-content-type-options", "nosniff").header("referrer-policy", "same-origin");
    reply.header("x-frame-options", "DENY");
    done(null, payload);
  });

  const ctx: RouteContext = { services, cookies };
  for (const routes of [
    authRoutes,
    oauth2Routes,
    selfRoutes,
    selfOtpRoutes,
    selfClientRoutes,
    selfSshKeyRoutes,
    passkeyRoutes,
    oidcRoutes,
    notificationRoutes,
    configRoutes,
    healthRoutes,
    settingsRoutes,
    nodeRoutes,
    serverRoutes,
    statsHistoryRoutes,
    serverLimitRoutes,
    databaseHostRoutes,
    permissionPresetRoutes,
    roleRoutes,
    serverDatabaseRoutes,
    playerRoutes,
    allocationRoutes,
    serverModRoutes,
    serverSocketRoutes,
    liveRoutes,
    fileRoutes,
    backupRoutes,
    queryRoutes,
    taskRoutes,
    transferRoutes,
    serverUserRoutes,
    serverClientRoutes,
    templateRoutes,
    openApiRoutes,
    apiDocsRoutes,
    userRoutes,
    activityRoutes,
    daemonBundleRoutes,
    webManifestRoutes,
    themeRoutes,
  ])
    routes(app, ctx);
  await installWebApp(app, config.webDir);
  return app;
}

/**
 * A fastify-plugin plugin registered without the range of Fastify versions it declares: Fastify
 * checks that range with semver, whose patterns, once compiled, an idle panel keeps (about
 * 0.1 MiB). package.json pins these plugins beside Fastify; the API tests run them.
 */
function withoutRangeCheck<Options extends FastifyPluginOptions>(
  plugin: FastifyPluginCallback<Options>,
): FastifyPluginCallback<Options> {
  const name = (plugin as unknown as Record<symbol, { name?: string } | undefined>)[Symbol.for("plugin-meta")]
    ?.name;
  const registered: FastifyPluginCallback<Options> = (instance, opts, done) => plugin(instance, opts, done);
  return Object.assign(registered, {
    // In the app's own scope, as fastify-plugin registers it, under its name.
    [Symbol.for("skip-override")]: true,
    [Symbol.for("fastify.display-name")]: name,
    [Symbol.for("plugin-meta")]: { name },
  });
}
