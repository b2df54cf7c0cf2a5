import { Type } from "typebox";
import {
  InviteAnswer,
  ServerUserGrantBody,
  ServerUserList,
  ServerUserParams,
} from "../contract/api/server-users.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { errors } from "../errors.ts";
import { requirePrincipal, requireServerScopes } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** A server's users under /api/servers/{id}/user (reference §12.13). */
export function serverUserRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { serverUsers } = services;

  api.get(
    "/api/servers/:id/user",
    {
      config: { access: "server.users.view" },
      schema: { params: ServerIdParams, response: { 200: ServerUserList } },
    },
    (request) => serverUsers.list(request.params.id),
  );

  api.get(
    "/api/servers/:id/user/:email",
    {
      config: { access: "server.users.view" },
      schema: { params: ServerUserParams, response: { 200: ServerUserList } },
    },
    async (request) => {
      const found = await serverUsers.list(request.params.id, request.params.email);
      if (found.length === 0) throw errors.userNotFound();
      return found;
    },
  );

  // server.users.edit changes someone's scopes; server.users.create is enough to add someone new.
  // The guard asks for server.view (what both imply) and the service decides which one it takes.
  api.put(
    "/api/servers/:id/user/:email",
    {
      config: { access: "server.view" },
      schema: {
        params: ServerUserParams,
        body: ServerUserGrantBody,
        response: { 200: InviteAnswer, 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const { id, email } = request.params;
      const held = requireServerScopes(request);
      const { invite } = await serverUsers.grant(
        id,
        email,
        request.body,
        { userId: principal.user.id, held },
        request.log,
      );
      // An invitation that was not mailed is answered: with its link only to an administrator.
      if (invite && !invite.mailed) return { invite: { url: invite.url, mailed: false as const } };
      return reply.status(204).send(null);
    },
  );

  api.delete(
    "/api/servers/:id/user/:email",
    { config: { access: "server.users.delete" }, schema: { params: ServerUserParams } },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const { id, email } = request.params;
      const held = requireServerScopes(request);
      await serverUsers.remove(id, email, { userId: principal.user.id, held });
      return reply.status(204).send();
    },
  );
}
