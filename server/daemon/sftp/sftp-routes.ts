import { SftpSessionFilter as Filter } from "../../contract/node/sftp-wire.ts";
import type { Router } from "../http/router.ts";
import type { SftpSessions } from "./sftp-sessions.ts";

/** POST /daemon/sftp/end: the panel ends a user's SFTP sessions on this node (its RemoteSftp). */
export function daemonSftpRoutes(api: Router, sessions: SftpSessions): void {
  api.post("/daemon/sftp/end", { body: Filter }, async (request, reply) => {
    await sessions.endSessions(request.body);
    return reply.status(204).send();
  });
}
