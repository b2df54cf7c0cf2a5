import type { ActivityList, ActivityQuery } from "../../server/contract/api/activity";
import { type CallOptions, get } from "./client";

// The activity log: /api/activity (administrators), /api/servers/{id}/activity, /api/self/activity.

export type ActivityPage = ActivityList;
export type ActivityEntry = ActivityList["activity"][number];
export type ActivityFilter = Omit<ActivityQuery, "format" | "page" | "limit">;

/** Whose log: everyone's, one server's, or the signed-in user's own. */
export type ActivityScope = { kind: "all" } | { kind: "server"; id: string } | { kind: "self" };

export function activityUrl(scope: ActivityScope): string {
  if (scope.kind === "server") return `/api/servers/${encodeURIComponent(scope.id)}/activity`;
  return scope.kind === "self" ? "/api/self/activity" : "/api/activity";
}

export const listActivity = (
  scope: ActivityScope,
  query: ActivityFilter & { page?: number; limit?: number },
  opts?: CallOptions,
) => get<ActivityPage>(activityUrl(scope), { ...opts, query: { ...opts?.query, ...query } });

/** A download of every matching entry (the session cookie goes along, as with any link). */
export function activityExportUrl(
  scope: ActivityScope,
  format: "csv" | "jsonl",
  filter: ActivityFilter,
): string {
  const query = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, String(value));
  return `${activityUrl(scope)}?${query}`;
}
