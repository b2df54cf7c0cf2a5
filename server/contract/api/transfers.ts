import { type Static, Type } from "typebox";

/** POST /api/servers/{id}/transfer: the node to move the server to. */
export const TransferBody = Type.Object(
  { node: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type TransferBody = Static<typeof TransferBody>;

/** A node a server could move to, as the Move to node dialog lists it. */
export const TransferTarget = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  reachable: Type.Boolean(),
  /** Bytes free where the node keeps servers (absent when it did not answer). */
  free: Type.Optional(Type.Number()),
  /** On a node with allocations: where each of the server's ports would go (issue 36). */
  ports: Type.Optional(Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer() }))),
  /** Why the server's ports do not fit there (an error code: ErrPortTaken, ErrNoFreeAllocation). */
  portsRefused: Type.Optional(Type.String()),
});
export type TransferTarget = Static<typeof TransferTarget>;

/** GET /api/servers/{id}/transfer: the nodes it could move to, with their free space. */
export const TransferTargets = Type.Object({ nodes: Type.Array(TransferTarget) });
export type TransferTargets = Static<typeof TransferTargets>;

/** How a move stands: bytes received by the new node so far, of the total. */
export interface TransferState {
  state: "copying" | "done" | "failed";
  node: number;
  received: number;
  total: number;
  error?: string;
}
