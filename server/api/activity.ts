import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ActivityEntryView } from "../contract/api/activity.ts";
import { ActivityList, ActivityQuery } from "../contract/api/activity.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { ApiError, errors } from "../errors.ts";
import type { ActivityLogFilter } from "../panel/activity.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const csvColumns = [
  "id",
  "time",
  "actorKind",
  "userId",
  "actor",
  "clientId",
  "address",
  "action",
  "ok",
  "serverId",
  "subject",
  "details",
] as const;

/**
 * One CSV cell, as OWASP's CSV-injection guidance says: every cell quoted, so that a spreadsheet
 * splitting on `;` or a tab (as many locales' do) does not start a new cell inside one
 * (`a;=HYPERLINK(…)`), and a cell it would read as a formula (`=`, `+`, `-`, `@`, a tab or a
 * carriage return first) prefixed with a single quote.
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

const csvLine = (entry: ActivityEntryView) => `${csvColumns.map((c) => csvField(entry[c])).join(",")}\r\n`;

/**
 * Exports one user may have streaming at once. Each reads every matching entry (millions, on an
 * old panel) from the database; a user who asks for dozens at once gets 429 for the rest.
 */
export const exportsPerUser = 2;
const exportsUnderWay = new Map<number, number>();

/** Takes one of the user's export places, or refuses; the answer's end (or its abort) frees it. */
function takeExportPlace(request: FastifyRequest, reply: FastifyReply): void {
  const userId = requirePrincipal(request).user.id;
  const held = exportsUnderWay.get(userId) ?? 0;
  if (held >= exportsPerUser) {
    throw new ApiError(
      429,
      "ErrTooManyAttempts",
      "at most ${max} exports at once: try again in ${retryAfter} s when one has finished",
      { max: exportsPerUser, retryAfter: 5 },
    );
  }
  exportsUnderWay.set(userId, held + 1);
  let freed = false;
  const free = () => {
    if (freed) return;
    freed = true;
    const left = (exportsUnderWay.get(userId) ?? 1) - 1;
    if (left > 0) exportsUnderWay.set(userId, left);
    else exportsUnderWay.delete(userId);
  };
  reply.raw.once("close", free);
  reply.raw.once("finish", free);
}

/**
 * The activity log (activity.ts): everything for administrators, one server's
 * for whoever holds `server.activity.view` there, one's own for everyone.
 * `format=csv|jsonl` streams every matching entry as a download.
 */
export function activityRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { activity } = services;

  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: ActivityQuery,
    filter: ActivityLogFilter,
  ) => {
    if (query.format === "csv" || query.format === "jsonl") {
      takeExportPlace(request, reply);
      const entries = activity.all(filter);
      const csv = query.format === "csv";
      const lines = async function* () {
        if (csv) yield `${csvColumns.join(",")}\r\n`;
        for await (const entry of entries) yield csv ? csvLine(entry) : `${JSON.stringify(entry)}\n`;
      };
      return reply
        .type(csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8")
        .header("content-disposition", `attachment; filename="activity.${query.format}"`)
        .send(Readable.from(lines()));
    }
    return activity.list(filter, query);
  };

  const withTimes = (query: ActivityQuery) => {
    for (const key of ["since", "until"] as const) {
      const value = query[key];
      if (value !== undefined && !/^\d+$/.test(value) && Number.isNaN(Date.parse(value)))
        throw new ApiError(400, "ErrFieldInvalid", "${field} is not a time", { field: key });
    }
    return query;
  };

  api.get(
    "/api/activity",
    {
      config: { access: "admin" },
      schema: { querystring: ActivityQuery, response: { 200: ActivityList } },
    },
    (request, reply) => {
      const { page, limit, format, ...filter } = withTimes(request.query);
      return answer(request, reply, request.query, filter);
    },
  );

  api.get(
    "/api/servers/:id/activity",
    {
      config: { access: "server.activity.view" },
      schema: { params: ServerIdParams, querystring: ActivityQuery, response: { 200: ActivityList } },
    },
    (request, reply) => {
      const { page, limit, format, server, ...filter } = withTimes(request.query);
      return answer(request, reply, request.query, { ...filter, serverId: request.params.id });
    },
  );

  // One's own: sign-ins (failed ones on one's account too) and changes. A client bound to one
  // server does not read its owner's whole history.
  api.get(
    "/api/self/activity",
    {
      config: { access: "login" },
      schema: { querystring: ActivityQuery, response: { 200: ActivityList } },
    },
    (request, reply) => {
      const principal = requirePrincipal(request);
      if (principal.onlyServer !== undefined) throw errors.missingScope("login");
      const { page, limit, format, user, ...filter } = withTimes(request.query);
      return answer(request, reply, request.query, { ...filter, userId: principal.user.id });
    },
  );
}
