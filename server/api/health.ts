import { HealthAnswer } from "../contract/api/health.ts";
import { ApiError } from "../errors.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** How long the database may take to answer before this panel calls itself unhealthy. */
const databaseWaitMs = 2000;

/**
 * GET /api/health (an Outpost addition, for load balancers): 200 while this
 * panel reaches its database, 503 ErrDatabaseUnreachable when it does not,
 * so a balancer sends requests to the panels that can serve them. No sign-in,
 * and nothing in the answer but that.
 */
export function healthRoutes(app: Api, { services }: RouteContext): void {
  typed(app).get(
    "/api/health",
    { config: { access: "public" }, schema: { response: { 200: HealthAnswer } } },
    async () => {
      if (!(await services.shared.databaseAnswers(databaseWaitMs)))
        throw new ApiError(503, "ErrDatabaseUnreachable", "this panel cannot reach its database");
      return { database: "ok" as const };
    },
  );
}
