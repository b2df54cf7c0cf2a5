import { daemonSettings, readDaemonConfig } from "../daemon/config.ts";
import { DaemonEngine } from "../daemon/engine.ts";
import { createLogger } from "../daemon/http/logger.ts";
import { buildDaemonServer } from "../daemon/http-api.ts";
import { panelAuthorizer, type SftpListener, startSftp } from "../daemon/sftp/index.ts";
import { productVersion } from "../version.ts";

/** `outpost daemon --config FILE`: a node on its own, reached by its panel. */
export async function daemon(configFile: string): Promise<void> {
  const config = readDaemonConfig(configFile);
  const settings = daemonSettings(config);
  const log = createLogger(settings.log);
  const engine = new DaemonEngine({ dataDir: config.dataDir, version: productVersion, ...settings.engine });
  const http = buildDaemonServer(engine, config, log);
  let sftp: SftpListener | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    await sftp?.close();
    await http.close();
    await engine.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await engine.start(
    (msg) => log.warn(msg),
    (msg) => log.info(msg),
  );
  // SFTP sign-ins are the panel's to check: this node asks it (reference §8).
  sftp = await startSftp(engine, {
    host: config.sftp.host,
    port: config.sftp.port,
    authorize: panelAuthorizer(config, log, engine.sftpSessions),
    log,
  });
  const address = await http.listen(config.listen.host, config.listen.port);
  log.info(`Outpost daemon for node ${config.nodeId} on ${address} (data in ${config.dataDir})`);
}
