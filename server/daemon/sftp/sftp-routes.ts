import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { SftpSessions } from "./sftp-sessions.ts";

const Filter = Type.Object(
  {
    userId: Type.Integer({ minimum: 0 }),
    serverId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** POST /daemon/sftp/end: the panel ends a user's SFTP sessions on this node (its RemoteSftp). */
export function daemonSftpRoutes(app: FastifyInstance, sessions: SftpSessions): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post("/daemon/sftp/end", { schema: { body: Filter } }, async (request, reply) => {
      await sessions.endSessions(request.body);
      return reply.status(204).send();
    });
}
