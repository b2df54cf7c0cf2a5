import { type Static, Type } from "typebox";
import { liveMaxWatchedIds, serverIdPattern } from "../constants.ts";

// GET /api/live (ours, issue 25): the frames of the one WebSocket for many servers' status and stats.

/** The only frame a client sends: the servers it shows, replacing its last watch. */
export const LiveWatchFrame = Type.Object({
  type: Type.Literal("watch"),
  ids: Type.Array(Type.String({ pattern: serverIdPattern.source }), { maxItems: liveMaxWatchedIds }),
});
export type LiveWatchFrame = Static<typeof LiveWatchFrame>;

/** A server's status, at once for each watched server and on each change. */
export const LiveStatusFrame = Type.Object({
  type: Type.Literal("status"),
  id: Type.String(),
  running: Type.Optional(Type.Boolean()),
  installing: Type.Optional(Type.Boolean()),
  installed: Type.Optional(Type.Boolean()),
  /** Running, but an imported egg's done line has not been seen yet. */
  starting: Type.Optional(Type.Boolean()),
  /** Why a never-installed server's install failed. */
  installFailure: Type.Optional(Type.String()),
  /** The server's node cannot be reached: its status is not known (the frame has no other field). */
  unreachable: Type.Optional(Type.Boolean()),
});
export type LiveStatusFrame = Static<typeof LiveStatusFrame>;

/** A running server's figures, one per sample, with the limits read from its node at start. */
export const LiveStatsFrame = Type.Object({
  type: Type.Literal("stats"),
  id: Type.String(),
  cpu: Type.Number(),
  memory: Type.Number(),
  /** The template's ServerLimits, the node's defaults filled in. */
  limits: Type.Optional(
    Type.Object({
      memoryMiB: Type.Optional(Type.Number()),
      pids: Type.Optional(Type.Number()),
      cpuPercent: Type.Optional(Type.Number()),
      diskMiB: Type.Optional(Type.Number()),
      swapMiB: Type.Optional(Type.Union([Type.Number(), Type.Literal("unlimited")])),
      ioWeight: Type.Optional(Type.Number()),
      cpuThreads: Type.Optional(Type.String()),
    }),
  ),
});
export type LiveStatsFrame = Static<typeof LiveStatsFrame>;

/** A refused watch, in the API's error envelope; the socket stays open. */
export const LiveErrorFrame = Type.Object({
  type: Type.Literal("error"),
  error: Type.Object({
    code: Type.String(),
    msg: Type.Optional(Type.String()),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    ),
  }),
});
export type LiveErrorFrame = Static<typeof LiveErrorFrame>;

/** Any frame the panel sends on /api/live. */
export const LiveFrame = Type.Union([LiveStatusFrame, LiveStatsFrame, LiveErrorFrame]);
export type LiveFrame = Static<typeof LiveFrame>;
