import { type Static, Type } from "typebox";

/** Most a server may be given of either: far beyond any pool or host, low enough to mean a typo. */
export const hostingLimitMaximum = 1000;

/**
 * GET/PUT /api/servers/{id}/limits: what a server may hold beyond its primary port allocation
 * (`allocationLimit`) and how many databases (`databaseLimit`). Both 0 for a new server.
 */
const limit = () => Type.Integer({ minimum: 0, maximum: hostingLimitMaximum });
export const ServerHostingLimits = Type.Object(
  { allocationLimit: limit(), databaseLimit: limit() },
  { additionalProperties: false },
);
export type ServerHostingLimits = Static<typeof ServerHostingLimits>;

/** PUT: either or both; what is left out keeps its value. */
export const ServerHostingLimitsBody = Type.Object(
  { allocationLimit: Type.Optional(limit()), databaseLimit: Type.Optional(limit()) },
  { additionalProperties: false },
);
export type ServerHostingLimitsBody = Static<typeof ServerHostingLimitsBody>;
