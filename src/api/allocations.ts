import type {
  FreeAllocationList,
  NodeAllocation,
  ServerAllocation,
  ServerAllocations,
} from "../../server/contract/api/allocations";
import { type CallOptions, del, get, post, put } from "./client";

// Port allocations (issue 36): a node's pool (administrators) and a server's own.

export type { NodeAllocation, ServerAllocation, ServerAllocations };

const nodeBase = (node: number) => `/api/nodes/${node}/allocations`;
const serverBase = (id: string) => `/api/servers/${encodeURIComponent(id)}/allocations`;

export const listNodeAllocations = (node: number, opts?: CallOptions) =>
  get<NodeAllocation[]>(nodeBase(node), opts);
export const addNodeAllocations = (node: number, body: { ip: string; ports: string; alias?: string }) =>
  post<NodeAllocation[]>(nodeBase(node), body);
export const deleteNodeAllocation = (node: number, allocationId: number) =>
  del<void>(`${nodeBase(node)}/${allocationId}`);
/** The first free ones, for the create wizard (any holder of server.create). */
export const freeNodeAllocations = (node: number, opts?: CallOptions) =>
  get<FreeAllocationList>(`${nodeBase(node)}/free`, opts);

export const listServerAllocations = (id: string, opts?: CallOptions) =>
  get<ServerAllocations>(serverBase(id), opts);
export const addServerAllocation = (id: string) => post<ServerAllocation>(serverBase(id));
export const removeServerAllocation = (id: string, allocationId: number) =>
  del<void>(`${serverBase(id)}/${allocationId}`);
export const makePrimaryAllocation = (id: string, allocationId: number) =>
  put<ServerAllocations>(`${serverBase(id)}/${allocationId}/primary`);

/** Where players connect: the alias when there is one, an any-address pool as the node's host. */
export function allocationAddress(
  entry: { ip: string; port: number; alias?: string },
  nodeHost: string,
): string {
  const host = entry.alias || (entry.ip === "0.0.0.0" || entry.ip === "::" ? nodeHost : entry.ip);
  return `${host.includes(":") ? `[${host}]` : host}:${entry.port}`;
}
