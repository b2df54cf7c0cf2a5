import fs from "node:fs";
import { Type } from "typebox";
import { ApiError } from "../errors.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** GET /theme/{name}.tar: a theme archive (reference §10.5), shipped or dropped by an administrator. */
export function themeRoutes(app: Api, { services }: RouteContext): void {
  typed(app).get(
    "/theme/:file",
    {
      config: { access: "public" },
      schema: { params: Type.Object({ file: Type.String({ maxLength: 120 }) }) },
    },
    async (request, reply) => {
      const { file } = request.params;
      const found = file.endsWith(".tar") ? await services.themes.file(file.slice(0, -4)) : undefined;
      if (!found) throw new ApiError(404, "ErrNotFound", "no such theme");
      return reply
        .type("application/x-tar")
        .header("Content-Length", found.size)
        .header("Cache-Control", "no-cache")
        .send(fs.createReadStream(found.path));
    },
  );
}
