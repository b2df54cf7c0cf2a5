import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildApp } from "../app.ts";
import type { ComposedPanel } from "../compose.ts";
import type { PanelConfig } from "../config.ts";
import { type SftpGrant, type SftpLogin, startSftp } from "../daemon/sftp/index.ts";
import type { OpenedDatabase } from "../db/database.ts";
import type { Reservation } from "../panel/live-connections.ts";
import { localNodeId } from "../panel/nodes.ts";
import type { PanelServices } from "../panel/services.ts";
import { panelBeatMs } from "../panel/shared-state.ts";
import { repoRoot } from "../repo-root.ts";
import { defaultsOnFirstRequest } from "../start-up-memory.ts";

/** How this installation runs the `outpost` command: from a checkout through npm, or a release's own. */
function outpostCommand(): string {
  return fs.existsSync(path.join(repoRoot, "server")) ? "npm run outpost --" : "outpost";
}

/** `outpost serve`: the panel until SIGINT/SIGTERM. */
export async function serve(
  config: PanelConfig,
  opened: OpenedDatabase,
  { services, localEngine }: ComposedPanel,
): Promise<void> {
  const app = await buildApp(config, services);
  // The services' warnings become the log's (JSON lines under OUTPOST_LOG_FORMAT=json).
  services.warnings.write = (msg) => app.log.warn(msg);
  // Other panels' writes drop the answers this one keeps in memory (PostgreSQL: its LISTEN connection).
  opened.followOtherWriters(app.log);
  await ensureFirstAdmin(config, services, (msg) => app.log.info(msg));
  if ((await services.accounts.count()) === 0) {
    app.log.warn(
      "no user exists yet: create the first administrator with " +
        `"${outpostCommand()} user add --admin --email you@example.com --username admin" ` +
        "(or set OUTPOST_ADMIN_EMAIL, OUTPOST_ADMIN_USERNAME and OUTPOST_ADMIN_PASSWORD before starting)",
    );
  }
  await services.nodes.start();
  services.nodeActivity.start();
  await localEngine?.start(
    (msg) => app.log.warn(msg),
    (msg) => app.log.info(msg),
  );
  // Rights may have shrunk while the panel was down: its own node's tasks are checked now (a remote
  // node's at its first answer, nodes.onReachable).
  if (localEngine) void services.tasks.reviewNode(localNodeId);
  // Alerts: told through the app's log; the servers' streams are held once the local node runs.
  services.notifier.log = app.log;
  services.alertWatch.start();
  // The VAPID key pair is made on the first start (sealed like the other secrets).
  await services.vapid.publicKey();
  // The local node's SFTP, on the panel's host: its sign-ins are checked in-process.
  const sftp =
    localEngine &&
    (await startSftp(localEngine, {
      host: config.host,
      port: config.sftpPort,
      authorize: (login) => localSftpSignIn(services, login),
      log: app.log,
    }));
  // Server creations a crash cut short: their leftovers on nodes are taken back now, and
  // later for nodes that did not answer (issue 13, finding 10).
  const reconcile = () =>
    services.servers
      .reconcile()
      .then((done) => {
        for (const msg of done) app.log.warn(msg);
      })
      .catch((err) => app.log.warn(`server creations not reconciled: ${err.message}`))
      .then(() => services.transfers.reconcile())
      .then((done) => {
        for (const msg of done) app.log.warn(msg);
      })
      .catch((err) => app.log.warn(`server transfers not reconciled: ${err.message}`));
  void reconcile();
  // This panel's lease (its connections count while it lives), then the background jobs: each runs
  // on one panel per period however many share the database (shared-state.ts).
  const { shared } = services;
  const runJobs = async () => {
    await shared.beat();
    // Sessions ended through another panel take this panel's sockets along.
    await services.live.closeWithoutSession((hashes) => services.sessions.existing(hashes));
    await shared.runJob("sessions.purge", 10 * 60_000, () => services.sessions.purgeExpired());
    await shared.runJob("creations.reconcile", 10 * 60_000, reconcile);
    await shared.runJob("shared.prune", 60_000, () => shared.prune());
    // Activity older than the retention setting (a setting, so read at each turn).
    await shared.runJob("activity.expire", config.activityPurgeMs, async () => {
      await services.activity.removeExpired();
    });
  };
  const jobs = setInterval(
    () => void runJobs().catch((err) => app.log.warn(`background jobs: ${err.message}`)),
    panelBeatMs,
  );
  jobs.unref();
  await shared.begin();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: stopping`);
    clearInterval(jobs);
    services.nodeActivity.stop();
    services.alertWatch.stop();
    services.notifier.close();
    services.nodes.stop();
    await sftp?.close();
    await app.close();
    await localEngine?.close();
    // Its places free at once for the other panels, not when its lease lapses.
    await shared.leave().catch(() => {});
    await opened.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  const address = await app.listen({ host: config.host, port: config.port });
  defaultsOnFirstRequest(app.server);
  app.log.info(`Outpost panel on ${address} (${opened.dialect} database, data in ${config.dataDir})`);
}

/** The first administrator from OUTPOST_ADMIN_* on a panel with no users; ignored once anyone exists. */
async function ensureFirstAdmin(
  config: PanelConfig,
  services: PanelServices,
  log: (m: string) => void,
): Promise<void> {
  if (!config.firstAdmin || (await services.accounts.count()) > 0) return;
  try {
    const user = await services.accounts.create({ ...config.firstAdmin, scopes: ["admin"] });
    log(`created the first administrator ${user.username} <${user.email}> from OUTPOST_ADMIN_*`);
  } catch (err) {
    // Panels sharing a database, started together: another one made it first.
    if ((await services.accounts.count()) === 0) throw err;
  }
}

/**
 * The local node's SFTP sign-in: the panel's rules (SftpAuth), then a place
 * among the live connections, so the session is capped like a console socket
 * and ends when the user signs out everywhere, changes password, is removed
 * from the server or deleted.
 */
async function localSftpSignIn(services: PanelServices, login: SftpLogin): Promise<false | SftpGrant> {
  const access = await services.sftpAuth.allows(login, localNodeId);
  if (access === undefined) return false;
  const { userId } = access;
  // A key only offered: no session follows, so none is reserved.
  if (login.probe) return { write: access.write, userId };
  let reservation: Reservation;
  try {
    reservation = await services.live.reserve({
      kind: "sftp",
      userId,
      // An SFTP sign-in is a session of its own: it is ended with the user's sessions, not one of them.
      sessionHash: `sftp:${randomUUID()}`,
      serverId: login.serverId,
      address: login.address,
    });
  } catch {
    return false;
  }
  return {
    write: access.write,
    userId,
    watch(end) {
      reservation.attach(end);
      return () => reservation.release();
    },
  };
}
