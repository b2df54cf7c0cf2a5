import { RconAnswer, RconBody } from "../../contract/node/rcon-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import type { Router } from "../http/router.ts";
import type { RconOps } from "./rcon-ops.ts";

/** POST /daemon/server/{id}/rcon `{command}`: the game's answer, spoken by the panel's RemoteRcon. */
export function daemonRconRoutes(api: Router, ops: RconOps): void {
  api.post(
    "/daemon/server/:id/rcon",
    { params: Id, body: RconBody, answer: RconAnswer },
    async (request) => ({
      answer: await ops.send(request.params.id, request.body.command),
    }),
  );
}
