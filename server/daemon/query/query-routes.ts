import type { FastifyInstance } from "fastify";
import type { QueryOps } from "./query-ops.ts";

/** The daemon's query routes under /daemon/server/{id}/query, spoken by the panel's RemoteQuery. */
export function daemonQueryRoutes(_app: FastifyInstance, _ops: QueryOps): void {}
