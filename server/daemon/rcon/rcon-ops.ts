import type { NodeRcon } from "../../contract/node/rcon-wire.ts";
import { ApiError } from "../../errors.ts";
import { playerCommandsOf, substituteTokens, tokenValues } from "../../templates/index.ts";
import { queryHost } from "../query/query-target.ts";
import type { ManagedServer } from "../servers/managed-server.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { type RconTarget, rconCommand, rconFailed } from "./rcon-client.ts";

/** Control characters and line separators: RCON takes one command per packet, never a second line. */
const notOneLine = /[\p{Cc}\u2028\u2029]/u;

/**
 * Sends a command over Source RCON to one of this node's running game servers, where its
 * template's `players.rcon` says (values may use `${variable}`: the password is one of the
 * server's variables, read here, never sent by the panel).
 */
export class RconOps implements NodeRcon {
  constructor(private readonly store: ServerStore) {}

  async send(id: string, command: string): Promise<string> {
    const server = this.store.get(id);
    if (notOneLine.test(command))
      throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid", { field: "command" });
    if (!server.status().running) throw new ApiError(409, "ErrServerOffline", "the server is not running");
    return rconCommand(rconTarget(server), command);
  }
}

function rconTarget(server: ManagedServer): RconTarget {
  const rcon = playerCommandsOf(server.definition)?.rcon;
  const ctx = server.context();
  const values = tokenValues(ctx);
  const fill = (text: string | number | undefined) =>
    substituteTokens(String(text ?? ""), values, "text", ctx.userValues).trim();
  const port = Number(fill(rcon?.port));
  if (!rcon || !Number.isInteger(port) || port < 1 || port > 65535)
    throw rconFailed("the template names no RCON port");
  return { host: queryHost(fill(rcon.ip)), port, password: fill(rcon.password) };
}
