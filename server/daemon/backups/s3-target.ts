import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { backupFileNamePattern, type S3BackupTarget } from "../../contract/node/backup-wire.ts";
import { ApiError, errorText } from "../../errors.ts";
import { backupMissing } from "./backup-restore.ts";

type Sdk = typeof import("@aws-sdk/client-s3");
type Storage = typeof import("@aws-sdk/lib-storage");
let loading: Promise<[Sdk, Storage]> | undefined;
/** The AWS SDK loads with the first use of a target, not at start: a node without one never holds it. */
const loadSdk = () =>
  (loading ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]));

/** Parts of 8 MiB, two in flight: at most about 16 MiB of a backup is held in memory, never on disk. */
const partSize = 8 * 1024 * 1024;
const queueSize = 2;

export const targetUnreachable = (reason: string, cause?: unknown) =>
  new ApiError(
    502,
    "ErrBackupTargetUnreachable",
    "the node cannot reach its backup storage: ${reason}",
    { reason: reason.slice(0, 500) },
    cause === undefined ? undefined : { cause },
  );

/** An S3 error in words (the SDK's name and message; never the keys). */
function s3Reason(error: unknown): string {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const text = errorText(error);
  const name = e?.Code ?? e?.name;
  return [
    name && name !== "Error" && !text.includes(name) ? name : "",
    text,
    status ? `(HTTP ${status})` : "",
  ]
    .filter(Boolean)
    .join(" ")
    .trim();
}

/** S3's answer for an object that is not there (a HEAD's has no body, hence no name but NotFound). */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/**
 * One node's backups in S3-compatible storage, through the AWS SDK. The
 * archive is streamed into a multipart upload as it is made (no copy on the
 * node's disk); a failed upload is aborted, so no half object is left.
 */
export class S3Backups {
  private made?: Promise<{ client: S3Client; sdk: Sdk; storage: Storage }>;

  constructor(readonly target: S3BackupTarget) {}

  private use() {
    this.made ??= loadSdk().then(([sdk, storage]) => ({ sdk, storage, client: this.makeClient(sdk) }));
    return this.made;
  }

  private makeClient(sdk: Sdk): S3Client {
    const { target } = this;
    return new sdk.S3Client({
      endpoint: target.endpoint,
      region: target.region,
      forcePathStyle: target.forcePathStyle,
      credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
      // A target that does not answer fails a backup within seconds, not minutes.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
      // Checksums only where S3 requires them: many S3-compatible services refuse the newer trailers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private folder(serverId: string): string {
    return `${this.target.prefix}${serverId}/`;
  }

  /** Where a backup this node made is kept: `<prefix><serverId>/<fileName>`. */
  key(serverId: string, fileName: string): string {
    return this.folder(serverId) + fileName;
  }

  /** Whether the bucket answers to these keys; throws ErrBackupTargetUnreachable saying why not. */
  async check(): Promise<void> {
    const { client, sdk } = await this.use();
    try {
      await client.send(new sdk.HeadBucketCommand({ Bucket: this.target.bucket }));
    } catch (error) {
      throw targetUnreachable(s3Reason(error), error);
    }
  }

  /** Streams `body` to the server's object; on any failure the multipart upload is aborted. */
  async upload(serverId: string, fileName: string, body: Readable): Promise<void> {
    const { client, storage } = await this.use();
    const upload = new storage.Upload({
      client,
      params: {
        Bucket: this.target.bucket,
        Key: this.key(serverId, fileName),
        Body: body,
        ContentType: "application/gzip",
      },
      partSize,
      queueSize,
      leavePartsOnError: false,
    });
    // A failing archive (the server's files) fails the upload, which aborts it.
    const failed = new Promise<never>((_, reject) => body.once("error", reject));
    failed.catch(() => {});
    try {
      await Promise.race([upload.done(), failed]);
    } catch (error) {
      await upload.abort().catch(() => {});
      if (error instanceof ApiError) throw error;
      throw targetUnreachable(s3Reason(error), error);
    }
  }

  /** The server's finished backups in the bucket. */
  async list(serverId: string): Promise<{ fileName: string; size: number; createdAt: number }[]> {
    const found: { fileName: string; size: number; createdAt: number }[] = [];
    let token: string | undefined;
    const { client, sdk } = await this.use();
    try {
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.target.bucket,
            Prefix: this.folder(serverId),
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          const fileName = (object.Key ?? "").slice(this.folder(serverId).length);
          if (!backupFileNamePattern.test(fileName)) continue;
          found.push({
            fileName,
            size: object.Size ?? 0,
            createdAt: object.LastModified?.getTime() ?? Date.now(),
          });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw targetUnreachable(s3Reason(error), error);
    }
    return found;
  }

  /** A backup's bytes, streamed from the bucket; 404 ErrBackupNotFound when it has no such object. */
  open(serverId: string, fileName: string): Promise<{ size: number; body: Readable }> {
    return this.openKey(this.key(serverId, fileName));
  }

  /** An object's bytes by its whole key (an adopted backup's is not under the prefix). */
  async openKey(key: string): Promise<{ size: number; body: Readable }> {
    const { client, sdk } = await this.use();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.target.bucket, Key: key }));
      return { size: answer.ContentLength ?? 0, body: answer.Body as Readable };
    } catch (error) {
      if (isMissing(error)) throw backupMissing();
      throw targetUnreachable(s3Reason(error), error);
    }
  }

  /** An object's size by its whole key (HEAD), or undefined when the bucket has no such object. */
  async size(key: string): Promise<number | undefined> {
    const { client, sdk } = await this.use();
    try {
      const answer = await client.send(new sdk.HeadObjectCommand({ Bucket: this.target.bucket, Key: key }));
      return answer.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw targetUnreachable(s3Reason(error), error);
    }
  }

  delete(serverId: string, fileName: string): Promise<void> {
    return this.deleteKey(this.key(serverId, fileName));
  }

  async deleteKey(key: string): Promise<void> {
    const { client, sdk } = await this.use();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.target.bucket, Key: key }));
    } catch (error) {
      throw targetUnreachable(s3Reason(error), error);
    }
  }

  /** Every backup of a server (it was deleted). */
  async deleteAll(serverId: string): Promise<void> {
    for (const { fileName } of await this.list(serverId)) await this.delete(serverId, fileName);
  }
}
