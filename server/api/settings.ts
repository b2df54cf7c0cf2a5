import {
  SettingAnswer,
  SettingBody,
  SettingKeyParams,
  SettingsBody,
  UserSettingBody,
  UserSettingKeyParams,
  UserSettingList,
} from "../contract/api/settings.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Panel settings (admin) and per-user settings (reference §10.3, §10.6). */
export function settingsRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);

  api.get(
    "/api/settings/:key",
    {
      config: { access: "settings.edit" },
      schema: { params: SettingKeyParams, response: { 200: SettingAnswer } },
    },
    async (request) => services.settings.read(request.params.key),
  );

  api.put(
    "/api/settings/:key",
    { config: { access: "settings.edit" }, schema: { params: SettingKeyParams, body: SettingBody } },
    async (request, reply) => {
      await services.settings.setMany({ [request.params.key]: request.body.value });
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/settings",
    { config: { access: "settings.edit" }, schema: { body: SettingsBody } },
    async (request, reply) => {
      await services.settings.setMany(request.body);
      return reply.status(204).send();
    },
  );

  // Sends to the calling administrator through the configured provider; a failure answers why.
  api.post("/api/settings/test/email", { config: { access: "settings.edit" } }, async (request, reply) => {
    await services.mailer.sendTest(requirePrincipal(request).user.email, request.log);
    return reply.status(204).send();
  });

  api.get(
    "/api/userSettings",
    { config: { access: "login" }, schema: { response: { 200: UserSettingList } } },
    async (request) => services.userSettings.list(requirePrincipal(request).user.id),
  );

  api.put(
    "/api/userSettings/:key",
    { config: { access: "login" }, schema: { params: UserSettingKeyParams, body: UserSettingBody } },
    async (request, reply) => {
      await services.userSettings.set(
        requirePrincipal(request).user.id,
        request.params.key,
        request.body.value,
      );
      return reply.status(204).send();
    },
  );
}
