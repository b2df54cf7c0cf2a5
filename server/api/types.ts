import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { PanelServices } from "../panel/services.ts";
import type { CookieJar } from "./pipeline/cookies.ts";

/** What every route module receives. */
export interface RouteContext {
  services: PanelServices;
  cookies: CookieJar;
}

export type Api = FastifyInstance;

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
