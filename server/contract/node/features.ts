import { type Static, Type } from "typebox";

/** What a node can do, in the reference's shape (§9.3): the daemon answers it, the panel reads it. */
export const NodeFeatures = Type.Object({
  features: Type.Array(Type.String()),
  environments: Type.Array(Type.String()),
  os: Type.String(),
  arch: Type.String(),
  version: Type.String(),
  /** Why host servers have no sandbox here (then `sandbox` is missing from features). */
  sandboxReason: Type.Optional(Type.String()),
  /** Why host servers are refused although the sandbox works: the host's loopback stays open to them. */
  loopbackReason: Type.Optional(Type.String()),
});
export type NodeFeatures = Static<typeof NodeFeatures>;
