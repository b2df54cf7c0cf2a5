import { type Static, Type } from "typebox";
import {
  BackupEntryList,
  BackupPinBody,
  BackupPolicy,
  BackupState,
  BackupVerdict,
  BackupRestoreBody as NodeRestoreBody,
} from "../node/backup-wire.ts";
import { ServerIdParams } from "./servers.ts";

export const backupNameMax = 100;

/** POST /api/servers/{id}/backup/{backupId}/verify: size, SHA-256 and the archive read through. */
export const BackupVerifyAnswer = BackupVerdict;

const BackupVerification = Type.Object({
  at: Type.String(),
  ok: Type.Boolean(),
  reason: Type.Optional(Type.String()),
});

/**
 * A backup as the API shows it: the reference's `{id, name, fileName,
 * createdAt}` (§12.19) plus `size` (bytes, once ready), `state` and, while
 * creating, `bytesWritten` so far (our extension, for a progress display);
 * `error` says why a failed one failed.
 */
export const BackupView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fileName: Type.String(),
  createdAt: Type.String(),
  size: Type.Integer(),
  state: BackupState,
  bytesWritten: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  /** Once ready (issue 38): taken while the server ran without the template's hooks. */
  whileRunning: Type.Optional(Type.Boolean()),
  /** The archive's SHA-256 (hex); absent for a backup made before it was recorded. */
  sha256: Type.Optional(Type.String()),
  /** Files the exclusions (`.outpostignore`, `.pteroignore`, the template's list) left out. */
  leftOut: Type.Optional(Type.Integer()),
  /** Never pruned by the backup policy. */
  pinned: Type.Optional(Type.Boolean()),
  lastVerification: Type.Optional(BackupVerification),
});
export type BackupView = Static<typeof BackupView>;

export const BackupList = Type.Array(BackupView);

export const BackupParams = Type.Object({
  id: ServerIdParams.properties.id,
  backupId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

/** `?name=`; whether it is there at all is checked by the service, so a blank one gets the same answer. */
export const BackupCreateQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: backupNameMax })),
});

/**
 * POST /api/servers/{id}/backup/restore/{backupId}: optional `{"paths": [...]}`
 * (issue 38), only those files or folders; no body (the reference's call), the whole backup.
 */
export const BackupRestoreBody = NodeRestoreBody;

/** GET/PUT /api/servers/{id}/backup-policy: the node's shape, as it keeps it. */
export const BackupPolicyBody = BackupPolicy;

/** PUT /api/servers/{id}/backup/{backupId}: `{"pinned": true}` keeps it from the policy. */
export const BackupUpdateBody = BackupPinBody;

/** GET /api/servers/{id}/backup/{backupId}/files?path=: a folder's children inside the backup. */
export const BackupFilesQuery = Type.Object({ path: Type.Optional(Type.String({ maxLength: 4096 })) });
export const BackupFilesAnswer = BackupEntryList;
