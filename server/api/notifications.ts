import {
  ChannelCreateBody,
  ChannelCreated,
  ChannelList,
  ChannelParams,
  ChannelTestResult,
} from "../contract/api/notifications.ts";
import { errors } from "../errors.ts";
import type { Principal } from "../panel/principal.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** A token bound to one server acts on that server only, not on its owner's alert channels. */
function owner(principal: Principal) {
  if (principal.onlyServer !== undefined) throw errors.missingScope("self.edit");
  return { userId: principal.user.id, admin: holdsScope(principal.scopes, "admin") };
}

/** The signed-in user's alert channels (issue 24): Web Push, webhooks, e-mail. */
export function notificationRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const channels = services.notificationChannels;

  api.get(
    "/api/self/notifications",
    { config: { access: "login" }, schema: { response: { 200: ChannelList } } },
    async (request) => channels.list(owner(requirePrincipal(request)).userId),
  );

  api.post(
    "/api/self/notifications",
    {
      config: { access: "self.edit" },
      schema: { body: ChannelCreateBody, response: { 200: ChannelCreated } },
    },
    async (request) => channels.create(owner(requirePrincipal(request)), request.body),
  );

  api.delete("/api/self/notifications", { config: { access: "self.edit" } }, async (request, reply) => {
    await channels.deleteAll(owner(requirePrincipal(request)).userId);
    return reply.status(204).send();
  });

  api.post(
    "/api/self/notifications/:id/test",
    {
      config: { access: "self.edit" },
      schema: { params: ChannelParams, response: { 200: ChannelTestResult } },
    },
    async (request) => ({
      outcome: await services.notifier.sendTest(owner(requirePrincipal(request)), request.params.id),
    }),
  );

  api.delete(
    "/api/self/notifications/:id",
    { config: { access: "self.edit" }, schema: { params: ChannelParams } },
    async (request, reply) => {
      await channels.delete(owner(requirePrincipal(request)).userId, request.params.id);
      return reply.status(204).send();
    },
  );
}
