import type { ServerList, ServerView, ServerWithPerms } from "../../server/contract/api/servers";
import type { TransferState, TransferTarget, TransferTargets } from "../../server/contract/api/transfers";
import type {
  ConsoleView,
  FlagsView,
  ServerAction,
  ServerDataView,
  ServerStatusView,
  StatsView,
} from "../../server/contract/node/server-wire";
import type { Template, VariableValue } from "../../server/templates/index.ts";
import { type CallOptions, del, get, post, put } from "./client";

// /api/servers (spec §7, reference §4–§6). Types come from the server's wire definitions.

export type Server = ServerView;
export type ServerPage = ServerList;
export type ServerStatusAnswer = ServerStatusView;
export type ServerStats = StatsView;
export type ConsoleAnswer = ConsoleView;
export type ServerData = ServerDataView;
export type ServerFlags = FlagsView;
export type { ServerAction, ServerWithPerms };

/** The create body: a template with where it runs, its name and who may use it (reference §6). */
export type NewServerBody = Template & {
  name: string;
  node: number;
  users: string[];
  /** On a node with a pool: the port chosen for a port variable, by its name (issue 36). */
  ports?: Record<string, number>;
};

export const SERVER_PAGE_SIZE = 20;

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}`;

/** A new server id: 4 random bytes as 8 lowercase hex characters (spec §3). */
export function newServerId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A name search is wrapped in wildcards (spec §5). */
export function nameQuery(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed ? `*${trimmed}*` : undefined;
}

export const listServers = (
  query: { page?: number; limit?: number; name?: string } = {},
  opts?: CallOptions,
) =>
  get<ServerPage>("/api/servers", {
    ...opts,
    query: { page: query.page ?? 1, limit: query.limit, name: nameQuery(query.name ?? "") },
  });

export const getServer = (id: string, opts?: CallOptions) =>
  get<ServerWithPerms>(base(id), { ...opts, query: { perms: "" } });

export const createServer = (id: string, body: NewServerBody, opts?: CallOptions) =>
  put<{ id: string }>(base(id), body, opts);

export const deleteServer = (id: string) => del<void>(base(id));

/**
 * start / stop / kill / install / reload. Sent without `wait` (reference §5.7): start and kill
 * answer once done, stop and install in the background; the live status tells the rest.
 */
export const serverAction = (id: string, action: ServerAction, opts?: CallOptions) =>
  post<void>(`${base(id)}/${action}`, undefined, opts);

export const getStatus = (id: string, opts?: CallOptions) =>
  get<ServerStatusAnswer>(`${base(id)}/status`, opts);
export const getStats = (id: string, opts?: CallOptions) => get<ServerStats>(`${base(id)}/stats`, opts);

/** Console output after `time` (µs; 0 = the whole buffer): `logs` is base64 of the bytes. */
export const getConsole = (id: string, time: number, opts?: CallOptions) =>
  get<ConsoleAnswer>(`${base(id)}/console`, { ...opts, query: { time: Math.max(0, Math.floor(time)) } });

/** One line to the process's input; the body is the bare text, not JSON (reference §12.20). */
export const sendCommand = (id: string, line: string, opts?: CallOptions) =>
  post<void>(`${base(id)}/console`, line, {
    ...opts,
    headers: { ...opts?.headers, "Content-Type": "text/plain; charset=utf-8" },
  });

export const renameServer = (id: string, name: string) =>
  put<void>(`${base(id)}/name/${encodeURIComponent(name)}`);

export const getFlags = (id: string, opts?: CallOptions) => get<ServerFlags>(`${base(id)}/flags`, opts);
export const setFlags = (id: string, flags: Partial<ServerFlags>) => post<void>(`${base(id)}/flags`, flags);

export const getDefinition = (id: string, opts?: CallOptions) =>
  get<Template>(`${base(id)}/definition`, opts);
export const putDefinition = (id: string, definition: unknown) =>
  put<void>(`${base(id)}/definition`, definition);

export type { TransferState, TransferTarget };

/** The nodes a server could move to, each with its free space (administrators). */
export const getTransferTargets = (id: string) => get<TransferTargets>(`${base(id)}/transfer`);
/** Moves a stopped server to another node; answers when it is there (progress comes over its socket). */
export const transferServer = (id: string, node: number) => post<void>(`${base(id)}/transfer`, { node });

export const getData = (id: string, opts?: CallOptions) => get<ServerData>(`${base(id)}/data`, opts);

/** Saves variable values: POST for the user-editable ones, PUT (server.data.edit.admin) for all. */
export const saveData = (id: string, values: Record<string, VariableValue>, asAdmin: boolean) =>
  (asAdmin ? put : post)<void>(`${base(id)}/data`, { data: values });

/** ws(s)://<this origin>/api/servers/<id>/socket — the cookie authenticates it. */
export function socketUrl(id: string, origin: string = location.origin): string {
  return `${origin.replace(/^http/, "ws")}${base(id)}/socket`;
}

/** Bytes of a base64 `logs` field. */
export function decodeLogs(logs: string): Uint8Array {
  if (!logs) return new Uint8Array(0);
  const text = atob(logs);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
