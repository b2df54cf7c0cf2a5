import { type Static, Type } from "typebox";
import { Paging } from "./servers.ts";

/** A time filter: Unix milliseconds or an ISO 8601 date (with or without a time). */
const Time = Type.String({
  maxLength: 40,
  pattern: "^(\\d{1,15}|\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?)$",
});

/** GET /api/activity, /api/servers/{id}/activity, /api/self/activity. */
export const ActivityQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  /** A user id, or the name the actor had (a username, an SFTP login, a task's name). */
  user: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  server: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** An action name; `*` matches any text (`server.*`). */
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  since: Type.Optional(Time),
  until: Type.Optional(Time),
  /** Text found in the actor, action, subject, server or address. */
  q: Type.Optional(Type.String({ maxLength: 100 })),
  /** Every matching entry as a download instead of a page. */
  format: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("csv"), Type.Literal("jsonl")])),
});
export type ActivityQuery = Static<typeof ActivityQuery>;

export const ActivityEntryView = Type.Object({
  id: Type.Integer(),
  /** ISO time. */
  time: Type.String(),
  /** user, client (an OAuth2 client), task or sftp. */
  actorKind: Type.String(),
  userId: Type.Union([Type.Integer(), Type.Null()]),
  actor: Type.String(),
  clientId: Type.Union([Type.String(), Type.Null()]),
  address: Type.String(),
  action: Type.String(),
  ok: Type.Boolean(),
  serverId: Type.Union([Type.String(), Type.Null()]),
  /** The server's name, in lists (not the exports); null when there is none or it was deleted. */
  serverName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  subject: Type.String(),
  /** The name of the user or node the subject names (`user:3`), in lists; null otherwise or once deleted. */
  subjectName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  details: Type.Record(Type.String(), Type.Unknown()),
});
export type ActivityEntryView = Static<typeof ActivityEntryView>;

export const ActivityList = Type.Object({ activity: Type.Array(ActivityEntryView), paging: Paging });
export type ActivityList = Static<typeof ActivityList>;
