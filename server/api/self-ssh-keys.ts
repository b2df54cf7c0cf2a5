import { SshKey, SshKeyCreateBody, SshKeyList, SshKeyParams } from "../contract/api/ssh-keys.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** The signed-in user's SSH keys for SFTP (issue 39). */
export function selfSshKeyRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { sshKeys } = services;

  api.get(
    "/api/self/ssh-keys",
    { config: { access: "self.edit" }, schema: { response: { 200: SshKeyList } } },
    (request) => sshKeys.list(requirePrincipal(request).user.id),
  );

  api.post(
    "/api/self/ssh-keys",
    { config: { access: "self.edit" }, schema: { body: SshKeyCreateBody, response: { 200: SshKey } } },
    (request) => sshKeys.add(requirePrincipal(request).user.id, request.body),
  );

  api.delete(
    "/api/self/ssh-keys/:id",
    { config: { access: "self.edit" }, schema: { params: SshKeyParams } },
    async (request, reply) => {
      await sshKeys.remove(requirePrincipal(request).user.id, request.params.id);
      return reply.status(204).send();
    },
  );
}
