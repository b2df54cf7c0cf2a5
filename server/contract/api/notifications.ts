import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";

/** What alerts can be about (issue 24). `account.newDevice` concerns the account itself, not a server. */
export const notificationEvents = [
  "server.crashed",
  "server.installFailed",
  "server.unresponsive",
  "backup.failed",
  "task.failed",
  "disk.nearLimit",
  "node.unreachable",
  "account.newDevice",
] as const;
export type NotificationEvent = (typeof notificationEvents)[number];

export const channelTypes = ["webpush", "webhook", "email"] as const;
export type ChannelType = (typeof channelTypes)[number];

/** The browser's PushSubscription JSON, as `subscription.toJSON()` gives it. */
export const PushSubscriptionBody = Type.Object({
  endpoint: Type.String({ maxLength: 2000 }),
  expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  keys: Type.Object({
    p256dh: Type.String({ maxLength: 200 }),
    auth: Type.String({ maxLength: 100 }),
  }),
});

/** POST /api/self/notifications. The rules the schema cannot say are the service's (clear errors). */
export const ChannelCreateBody = Type.Object({
  type: Type.String({ maxLength: 16 }),
  events: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 }),
  servers: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 })),
  // A webhook's address is its key (Discord's and Slack's carry their token); a push subscription
  // is the browser's address and keys.
  url: Type.Optional(secret(Type.String({ maxLength: 2000 }))),
  subscription: Type.Optional(secret(PushSubscriptionBody)),
});
export type ChannelCreateBody = Static<typeof ChannelCreateBody>;

/** A channel as its owner sees it: never its secret, a push subscription only by its endpoint. */
export const ChannelView = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  events: Type.Array(Type.String()),
  servers: Type.Array(Type.String()),
  url: Type.Optional(Type.String()),
  endpoint: Type.Optional(Type.String()),
  createdAt: Type.Integer(),
});
export type ChannelView = Static<typeof ChannelView>;
export const ChannelList = Type.Array(ChannelView);

/** The answer to a webhook's creation carries its signing secret, once. */
export const ChannelCreated = Type.Object({
  ...ChannelView.properties,
  secret: Type.Optional(Type.String()),
});
export type ChannelCreated = Static<typeof ChannelCreated>;

// A serial id: PostgreSQL refuses (500) a larger one in a comparison, so the schema does first.
export const ChannelParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * POST /api/self/notifications/{id}/test: what became of the test alert — sent; not delivered for
 * now (the far end was away or busy: real alerts are retried); refused for good (a wrong address or
 * a closed hook); gone (the push subscription ended, and the channel with it).
 */
export const ChannelTestResult = Type.Object({
  outcome: Type.Union([
    Type.Literal("sent"),
    Type.Literal("retry"),
    Type.Literal("failed"),
    Type.Literal("gone"),
  ]),
});
