import type { FastifyInstance } from "fastify";
import type { FileOps } from "./file-ops.ts";

/** The daemon's file routes under /daemon/server/{id}, spoken by the panel's RemoteFiles. */
export function daemonFileRoutes(_app: FastifyInstance, _ops: FileOps): void {}
