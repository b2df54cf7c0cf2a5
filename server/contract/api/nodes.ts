import { type Static, Type } from "typebox";
import { NodeFeatures } from "../node/features.ts";
import { secret } from "./secret.ts";

const Port = Type.Integer({ minimum: 1, maximum: 65535 });

/**
 * Where a node keeps its backups, as an administrator sees it: its own disk,
 * or S3-compatible storage. The secret key is never answered: "" with
 * whether one is stored (as the SMTP password).
 */
export const BackupTargetView = Type.Union([
  Type.Object({ type: Type.Literal("local") }),
  Type.Object({
    type: Type.Literal("s3"),
    endpoint: Type.String(),
    region: Type.String(),
    bucket: Type.String(),
    prefix: Type.String(),
    accessKeyId: Type.String(),
    secretAccessKey: Type.Literal(""),
    secretAccessKeySet: Type.Boolean(),
    forcePathStyle: Type.Boolean(),
  }),
]);
export type BackupTargetView = Static<typeof BackupTargetView>;

/**
 * A backup target as written (null or `{type:"local"}`: the node's disk). The
 * fields are checked by the service, each with its own error; a secret key
 * left "" or out keeps the stored one.
 */
export const BackupTargetInput = Type.Union([
  Type.Null(),
  Type.Object({
    type: Type.String({ maxLength: 10 }),
    endpoint: Type.Optional(Type.String({ maxLength: 500 })),
    region: Type.Optional(Type.String({ maxLength: 64 })),
    bucket: Type.Optional(Type.String({ maxLength: 63 })),
    prefix: Type.Optional(Type.String({ maxLength: 200 })),
    accessKeyId: Type.Optional(Type.String({ maxLength: 256 })),
    secretAccessKey: Type.Optional(secret(Type.String({ maxLength: 256 }))),
    forcePathStyle: Type.Optional(Type.Boolean()),
  }),
]);
export type BackupTargetInput = Static<typeof BackupTargetInput>;

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
  /** Only to administrators, and only on GET /api/nodes/{id}. */
  backupTarget: Type.Optional(BackupTargetView),
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

/** backupTarget: administrators only. */
export const NodeUpdateBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  publicHost: Type.Optional(Type.String({ maxLength: 253 })),
  publicPort: Type.Optional(Port),
  privateHost: Type.Optional(Type.String({ maxLength: 253 })),
  privatePort: Type.Optional(Port),
  sftpPort: Type.Optional(Port),
  backupTarget: Type.Optional(BackupTargetInput),
});
export type NodeUpdateBody = Static<typeof NodeUpdateBody>;

export const NodeIdParams = Type.Object({ id: Type.Integer({ minimum: 0 }) });

/** GET /api/nodes/{id}/features: the node's answer as it is. */
export const NodeFeaturesAnswer = NodeFeatures;
export type NodeFeaturesAnswer = Static<typeof NodeFeaturesAnswer>;

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
