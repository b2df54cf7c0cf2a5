import { readDaemonConfig } from "../daemon/config.ts";
import { DaemonEngine } from "../daemon/engine.ts";
import { buildDaemonApp } from "../daemon/http-api.ts";
import { panelAuthorizer, type SftpListener, startSftp } from "../daemon/sftp/index.ts";
import { productVersion } from "../version.ts";

/** `outpost daemon --config FILE`: a node on its own, reached by its panel. */
export async function daemon(configFile: string): Promise<void> {
  const config = readDaemonConfig(configFile);
  const engine = new DaemonEngine({
    dataDir: config.dataDir,
    version: productVersion,
    dockerSocket: config.dockerSocket,
  });
  const app = await buildDaemonApp(engine, config, process.env.OUTPOST_LOG_LEVEL || "info");
  let sftp: SftpListener | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: stopping`);
    await sftp?.close();
    await app.close();
    await engine.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await engine.start((msg) => app.log.warn(msg));
  // SFTP sign-ins are the panel's to check: this node asks it (reference §8).
  sftp = await startSftp(engine, {
    host: config.sftp.host,
    port: config.sftp.port,
    authorize: panelAuthorizer(config, app.log, engine.sftpSessions),
    log: app.log,
  });
  const address = await app.listen({ host: config.listen.host, port: config.listen.port });
  app.log.info(`Outpost daemon for node ${config.nodeId} on ${address} (data in ${config.dataDir})`);
}
