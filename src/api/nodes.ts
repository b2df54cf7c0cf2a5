import type {
  BackupTargetView,
  NodeCreateBody,
  NodeDeployment,
  NodeFeaturesAnswer,
  NodeUpdateBody,
  NodeView,
} from "../../server/contract/api/nodes";
import { type CallOptions, del, get, post, put } from "./client";

// /api/nodes (spec §7, reference §9). Types come from the server's wire schemas.

export type Node = NodeView;
export type BackupTarget = BackupTargetView;
export type Deployment = NodeDeployment;
export type { NodeCreateBody, NodeFeaturesAnswer };

export const listNodes = (opts?: CallOptions) => get<Node[]>("/api/nodes", opts);
export const getNode = (id: number, opts?: CallOptions) => get<Node>(`/api/nodes/${id}`, opts);
export const updateNode = (id: number, body: NodeUpdateBody, opts?: CallOptions) =>
  put<void>(`/api/nodes/${id}`, body, opts);
export const deleteNode = (id: number) => del<void>(`/api/nodes/${id}`);
export const getDeployment = (id: number) => get<Deployment>(`/api/nodes/${id}/deployment`);

/** A node that is down answers 502 (500 on older panels): that is "no features", not an error to show. */
export const getFeatures = (id: number) =>
  get<NodeFeaturesAnswer>(`/api/nodes/${id}/features`, { exempt: [500, 502] });

/**
 * Creates a node and answers its id. This panel answers the new node; the reference panel
 * answers `{}`, so without an id the list is fetched and the node found by name (-1 if absent).
 */
export async function createNode(body: NodeCreateBody, opts?: CallOptions): Promise<number> {
  const answer = await post<Partial<Node> | undefined>("/api/nodes", body, opts);
  if (typeof answer?.id === "number") return answer.id;
  try {
    return (await listNodes()).find((n) => n.name === body.name)?.id ?? -1;
  } catch {
    return -1;
  }
}
