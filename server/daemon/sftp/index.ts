import type { DaemonEngine } from "../engine.ts";
import { type SftpAuthorizer, SftpListener } from "./sftp-server.ts";

export { panelAuthorizer } from "./panel-auth.ts";
export { type SftpAuthorizer, type SftpGrant, SftpListener, type SftpLogin } from "./sftp-server.ts";

/**
 * Starts the SFTP listener of the node an engine runs, its host key kept in
 * the engine's data folder. A port that cannot be taken is logged, not
 * fatal: the node's other work goes on without SFTP.
 */
export async function startSftp(
  engine: DaemonEngine,
  options: {
    host: string;
    port: number;
    authorize: SftpAuthorizer;
    log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  },
): Promise<SftpListener | undefined> {
  const listener = new SftpListener({
    host: options.host,
    port: options.port,
    dataDir: engine.options.dataDir,
    authorize: options.authorize,
    sandboxOf: (serverId) =>
      engine.servers.ids().includes(serverId) ? engine.servers.get(serverId).userFiles : undefined,
    diskOf: (serverId) =>
      engine.servers.ids().includes(serverId) ? engine.servers.get(serverId).disk : undefined,
    log: options.log,
    onActivity: (activity) => engine.events.activity(activity),
  });
  try {
    const address = await listener.listen();
    options.log.info(`SFTP on ${address.address}:${address.port} (host key ${listener.fingerprint})`);
    return listener;
  } catch (error) {
    options.log.error(
      `SFTP is not listening on ${options.host}:${options.port}: ${(error as Error).message}`,
    );
    return undefined;
  }
}
