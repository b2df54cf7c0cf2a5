import type { Db } from "../db/database.ts";
import { errors } from "../errors.ts";
import { checkClientFields, type OAuthClient, type OAuthClients } from "./oauth-clients.ts";
import { holdsScope } from "./scopes.ts";
import { assertServerExists } from "./server-exists.ts";
import { checkServerScopes, type ServerEditor } from "./server-users.ts";

/**
 * OAuth2 clients bound to one server. Their tokens act on that server only,
 * with the scopes given here (see `scopesOnServer` in principal.ts).
 */
export class ServerClients {
  constructor(
    private readonly db: Db,
    private readonly clients: OAuthClients,
  ) {}

  async list(serverId: string): Promise<OAuthClient[]> {
    await assertServerExists(this.db, serverId);
    return this.clients.listByServer(serverId);
  }

  /**
   * A new client owned by the editor. Every scope it gets must be one the
   * editor holds on the server (server.admin or admin hold them all), so a
   * client never reaches further than its creator. `server.view` is always
   * included, as in every server-level scope list (reference §2.2).
   */
  async create(
    serverId: string,
    input: { name: string; description?: string; scopes: string[] },
    editor: ServerEditor,
  ): Promise<{ client: OAuthClient; secret: string }> {
    await assertServerExists(this.db, serverId);
    const { name, description } = checkClientFields(input);
    const scopes = checkServerScopes(["server.view", ...input.scopes]);
    const beyond = scopes.find((s) => !holdsScope(editor.held, s));
    if (beyond) throw errors.missingScope(beyond);
    return this.clients.create({ userId: editor.userId, serverId, name, description, scopes });
  }

  async delete(serverId: string, clientId: string): Promise<void> {
    await assertServerExists(this.db, serverId);
    if (!(await this.clients.deleteOfServer(serverId, clientId))) {
      throw errors.clientNotFound();
    }
  }
}
