import { Type } from "typebox";

/** GET /api/health: this panel answers and reaches its database. */
export const HealthAnswer = Type.Object({ database: Type.Literal("ok") });
