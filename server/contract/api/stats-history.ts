import { type Static, type TSchema, Type } from "typebox";
import { type HistoryRange, historyRanges } from "../node/history-wire.ts";

/** `?range=`: how far back the chart reaches (default one hour). */
export const HistoryQuery = Type.Object({
  range: Type.Optional(
    Type.Union(
      historyRanges.map((r) => Type.Literal(r)),
      { default: "1h" },
    ),
  ),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

const metrics = {
  cpu: Type.Number({ description: "percent of one core (a server) or of the whole host (a node)" }),
  memory: Type.Number({ description: "bytes" }),
  disk: Type.Optional(Type.Number({ description: "bytes; absent when not measured" })),
  players: Type.Optional(Type.Number({ description: "absent when the server's query does not answer" })),
};
const Metrics = Type.Object(metrics);

const HistoryPoint = Type.Object({
  time: Type.Number({ description: "Unix milliseconds: the start of the span the point covers" }),
  ...metrics,
  min: Type.Optional(Metrics),
  max: Type.Optional(Metrics),
});

/** Typed as the ranges themselves: a union built by map() would infer `never`. */
const Range = Type.Unsafe<HistoryRange>(Type.Union(historyRanges.map((r) => Type.Literal(r))));

const historyFields = {
  range: Range,
  step: Type.Number({ description: "seconds each point stands for" }),
  points: Type.Array(HistoryPoint),
};

/** GET /api/servers/{id}/stats/history. */
export const HistoryView: TSchema = Type.Object(historyFields);

/** GET /api/nodes/{id}/stats/history: the node's own history and its servers' in fewer points. */
export const NodeHistoryAnswer = Type.Object({
  ...historyFields,
  totals: Type.Object({
    cpus: Type.Integer(),
    memory: Type.Number({ description: "bytes" }),
    disk: Type.Number({ description: "bytes of the file system holding the node's data" }),
  }),
  servers: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...historyFields })),
});
export type NodeHistoryAnswer = Static<typeof NodeHistoryAnswer>;
