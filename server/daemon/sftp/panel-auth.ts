import { sftpKeyGrant } from "../../contract/node/sftp-username.ts";
import type { SftpAuthorizer } from "./sftp-server.ts";
import type { SftpSessions } from "./sftp-sessions.ts";

/**
 * A remote node's SFTP sign-in check: the node has no accounts, so it asks
 * its panel (reference §8) with `grant_type=password` at `/oauth2/token`,
 * authenticated by the node's secret. It lets the client in only when the
 * answer's scope lists `<serverId>:server.sftp`, read-only unless it also
 * lists `<serverId>:server.files.edit` (a panel that does not say so gets a
 * read-only session). The answer's `user_id`
 * (beyond the reference) names the panel user: the session is tracked under
 * it in `sessions`, so that the panel can end it when that user's rights go
 * (POST /daemon/sftp/end). `remote_address` (beyond the
 * reference) lets the panel throttle per client address rather than count
 * every failure of every client of this node against the node's own address.
 * A key sign-in asks with Outpost's own grant (sftpKeyGrant): the public key
 * whose signature this node checked, or only offered (`probe=1`).
 */
export function panelAuthorizer(
  config: { panelUrl: string; secret: string },
  log: { warn(msg: string): void },
  sessions: SftpSessions,
): SftpAuthorizer {
  const tokenUrl = `${config.panelUrl.replace(/\/+$/, "")}/oauth2/token`;
  return async (login) => {
    const response = await fetch(tokenUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.secret}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({
        ...(login.publicKey === undefined
          ? { grant_type: "password", password: login.password ?? "" }
          : { grant_type: sftpKeyGrant, public_key: login.publicKey, probe: login.probe ? "1" : "0" }),
        username: `${login.email}#${login.serverId}`,
        scope: "sftp",
        remote_address: login.address,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      if (response.status === 401) log.warn(`the panel at ${tokenUrl} refused this node's secret`);
      else if (response.status >= 500) log.warn(`the panel at ${tokenUrl} answered ${response.status}`);
      return false;
    }
    const answer = (await response.json()) as { scope?: unknown; user_id?: unknown };
    const scopes = typeof answer.scope === "string" ? answer.scope.split(" ") : [];
    if (!scopes.includes(`${login.serverId}:server.sftp`)) return false;
    const userId = answer.user_id;
    // A session the panel could not end later is not let in.
    if (typeof userId !== "number") {
      log.warn(`the panel at ${tokenUrl} did not say which user signed in: SFTP refused`);
      return false;
    }
    return {
      write: scopes.includes(`${login.serverId}:server.files.edit`),
      userId,
      watch: (end) => sessions.add(userId, login.serverId, end),
    };
  };
}
