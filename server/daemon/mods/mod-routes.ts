import { ModFileList, ModFolderQuery, ModInstallBody, ModRemoveQuery } from "../../contract/node/mod-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import type { Router } from "../http/router.ts";
import type { ModOps } from "./mod-ops.ts";

/** The daemon's mod routes under /daemon/server/{id}/mods, spoken by the panel's RemoteMods. */
export function daemonModRoutes(api: Router, ops: ModOps): void {
  const path = "/daemon/server/:id/mods";
  api.get(path, { params: Id, query: ModFolderQuery, answer: ModFileList }, (request) =>
    ops.list(request.params.id, request.query.folder),
  );
  api.post(path, { params: Id, body: ModInstallBody }, async (request, reply) => {
    await ops.install(request.params.id, request.body);
    return reply.status(204).send();
  });
  api.delete(path, { params: Id, query: ModRemoveQuery }, async (request, reply) => {
    await ops.remove(request.params.id, request.query.folder, request.query.file);
    return reply.status(204).send();
  });
}
