import {
  PermissionPresetCreateBody,
  PermissionPresetList,
  PermissionPresetParams,
  PermissionPresetUpdateBody,
  PermissionPresetView,
} from "../contract/api/permission-presets.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Presets of server scopes (issue 39): read by whoever adds server users, written by administrators. */
export function permissionPresetRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { permissionPresets } = services;
  const byId = { params: PermissionPresetParams };

  // A preset says nothing of anyone's rights: every signed-in user may read them (the Add-user box).
  api.get(
    "/api/permission-presets",
    { config: { access: "login" }, schema: { response: { 200: PermissionPresetList } } },
    () => permissionPresets.list(),
  );

  api.post(
    "/api/permission-presets",
    {
      config: { access: "admin" },
      schema: { body: PermissionPresetCreateBody, response: { 200: PermissionPresetView } },
    },
    (request) => permissionPresets.create(request.body),
  );

  api.put(
    "/api/permission-presets/:id",
    {
      config: { access: "admin" },
      schema: { ...byId, body: PermissionPresetUpdateBody, response: { 200: PermissionPresetView } },
    },
    (request) => permissionPresets.update(request.params.id, request.body),
  );

  api.delete(
    "/api/permission-presets/:id",
    { config: { access: "admin" }, schema: byId },
    async (request, reply) => {
      await permissionPresets.delete(request.params.id);
      return reply.status(204).send();
    },
  );
}
