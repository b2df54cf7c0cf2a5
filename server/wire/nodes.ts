import { type Static, Type } from "typebox";

const Port = Type.Integer({ minimum: 1, maximum: 65535 });

/** A node as the API shows it (reference §9.1), plus whether the panel can reach it now. */
export const NodeView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  publicHost: Type.String(),
  publicPort: Type.Integer(),
  privateHost: Type.String(),
  privatePort: Type.Integer(),
  sftpPort: Type.Integer(),
  isLocal: Type.Boolean(),
  reachable: Type.Boolean(),
});
export type NodeView = Static<typeof NodeView>;

export const NodeCreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  publicHost: Type.String({ maxLength: 253 }),
  publicPort: Port,
  privateHost: Type.String({ maxLength: 253 }),
  privatePort: Port,
  sftpPort: Port,
});
export type NodeCreateBody = Static<typeof NodeCreateBody>;

export const NodeUpdateBody = Type.Partial(NodeCreateBody);
export type NodeUpdateBody = Static<typeof NodeUpdateBody>;

export const NodeIdParams = Type.Object({ id: Type.Integer({ minimum: 0 }) });

export const NodeFeaturesAnswer = Type.Object({
  features: Type.Array(Type.String()),
  environments: Type.Array(Type.String()),
  os: Type.String(),
  arch: Type.String(),
  version: Type.String(),
  /** Why the node cannot sandbox its host servers (they are refused, or run unconfined with `unsandboxed`). */
  sandboxReason: Type.Optional(Type.String()),
});

export const DaemonConfigView = Type.Object({
  nodeId: Type.Integer(),
  secret: Type.String(),
  panelUrl: Type.String(),
  listen: Type.Object({ host: Type.String(), port: Type.Integer() }),
  sftp: Type.Object({ host: Type.String(), port: Type.Integer() }),
  dataDir: Type.String(),
});

/** `config` is absent for the local node: it runs inside the panel and has nothing to deploy. */
export const NodeDeployment = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String(),
  publicKey: Type.String(),
  config: Type.Optional(DaemonConfigView),
});
export type NodeDeployment = Static<typeof NodeDeployment>;
