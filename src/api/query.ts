import type { QueryAnswer, QueryView } from "../../server/contract/node/query-wire";
import { type CallOptions, get, headStatus } from "./client";

// The player-count query (spec §7, reference §5.10). Types come from the server's wire definitions.

export type { QueryAnswer, QueryView };

const url = (id: string) => `/api/servers/${encodeURIComponent(id)}/query`;

/** Whether the server's template names a query this panel can ask (HEAD: 202 yes, 204 no). */
export async function canQuery(id: string, opts: CallOptions = {}): Promise<boolean> {
  return (await headStatus(url(id), opts)) === 202;
}

/** The answer under its query type, or undefined when there is none (204: stopped, or no answer). */
export const getQuery = (id: string, opts?: CallOptions) => get<QueryView | undefined>(url(id), opts);

/** The one answer of a query view (it holds one type) with its type. */
export function onlyAnswer(view: QueryView | undefined): { type: string; answer: QueryAnswer } | undefined {
  const type = view ? Object.keys(view)[0] : undefined;
  return view && type ? { type, answer: view[type] } : undefined;
}
