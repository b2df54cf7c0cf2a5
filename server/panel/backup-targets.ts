import type { BackupTargetInput, BackupTargetView } from "../contract/api/nodes.ts";
import type { S3BackupTarget } from "../contract/node/backup-wire.ts";
import type { Db } from "../db/database.ts";
import { ApiError, errors } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

type Settings = Omit<S3BackupTarget, "type" | "secretAccessKey">;

const invalid = (field: string, why: string) =>
  new ApiError(400, "ErrFieldInvalid", "${field} is not valid: ${why}", { field, why });

const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const regionName = /^[A-Za-z0-9-]{1,64}$/;
const prefixName = /^[A-Za-z0-9!_.*'()/-]*$/;

/** The endpoint as a plain http(s) origin with an optional path: no credentials, query or fragment in it. */
function checkEndpoint(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("endpoint", "it is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalid("endpoint", "use http:// or https://");
  if (url.username || url.password || url.search || url.hash) {
    throw invalid("endpoint", "no credentials, query or fragment in it");
  }
  return value.replace(/\/+$/, "");
}

/** `backups` or `backups/` → `backups/`: objects are `<prefix><serverId>/<file>`. */
function checkPrefix(value: string): string {
  const prefix = value.replace(/^\/+/, "");
  if (!prefixName.test(prefix)) throw invalid("prefix", "letters, digits and !_.*'()/- only");
  if (
    prefix
      .split("/")
      .some((part, i, all) => (part === "" && i < all.length - 1) || part === "." || part === "..")
  ) {
    throw invalid("prefix", "no empty, . or .. parts");
  }
  return prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
}

function checkKey(field: string, value: string | undefined): string {
  const key = (value ?? "").trim();
  if (!key) throw errors.fieldRequired(field);
  if (/[\p{Cc}\s]/u.test(key)) throw invalid(field, "no spaces or control characters");
  return key;
}

/**
 * Each node's backup target: its own disk, or S3-compatible storage. The
 * panel keeps the settings here (the secret key sealed, never answered) and
 * hands the whole target to the node, which tries the bucket before it keeps
 * it, and streams its backups there itself.
 */
export class BackupTargets {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async view(nodeId: number): Promise<BackupTargetView> {
    const row = await this.row(nodeId);
    if (!row) return { type: "local" };
    const settings = JSON.parse(row.settings) as Settings;
    return { type: "s3", ...settings, secretAccessKey: "", secretAccessKeySet: row.secret !== "" };
  }

  /** The node first (it tries the bucket; one it cannot reach is refused), then the row. */
  async set(nodeId: number, input: BackupTargetInput, node: NodeClient): Promise<void> {
    if (input === null || input.type === "local") {
      await node.backups.setTarget(null);
      await this.db.deleteFrom("backup_targets").where("node_id", "=", nodeId).execute();
      return;
    }
    if (input.type !== "s3") throw invalid("type", 'use "s3", or "local" for the node\'s own disk');
    const stored = await this.row(nodeId);
    const endpoint = checkEndpoint((input.endpoint ?? "").trim() || failRequired("endpoint"));
    const region = (input.region ?? "").trim() || "us-east-1";
    if (!regionName.test(region)) throw invalid("region", "letters, digits and - only");
    const bucket = (input.bucket ?? "").trim() || failRequired("bucket");
    if (!bucketName.test(bucket)) throw invalid("bucket", "3 to 63 lower-case letters, digits, . or -");
    const settings: Settings = {
      endpoint,
      region,
      bucket,
      prefix: checkPrefix((input.prefix ?? "").trim()),
      accessKeyId: checkKey("accessKeyId", input.accessKeyId),
      forcePathStyle: input.forcePathStyle ?? false,
    };
    // "" keeps the stored key: the form never holds it, so saving it back must not wipe it.
    const secretAccessKey = input.secretAccessKey
      ? checkKey("secretAccessKey", input.secretAccessKey)
      : stored
        ? this.box.open(stored.secret)
        : failRequired("secretAccessKey");
    await node.backups.setTarget({ type: "s3", ...settings, secretAccessKey });
    const values = {
      node_id: nodeId,
      settings: JSON.stringify(settings),
      secret: this.box.seal(secretAccessKey),
    };
    await this.db
      .insertInto("backup_targets")
      .values(values)
      .onConflict((oc) =>
        oc.column("node_id").doUpdateSet({ settings: values.settings, secret: values.secret }),
      )
      .execute();
  }

  /** A deleted node's target goes with it. */
  async forget(nodeId: number): Promise<void> {
    await this.db.deleteFrom("backup_targets").where("node_id", "=", nodeId).execute();
  }

  private row(nodeId: number) {
    return this.db.selectFrom("backup_targets").selectAll().where("node_id", "=", nodeId).executeTakeFirst();
  }
}

function failRequired(field: string): never {
  throw errors.fieldRequired(field);
}

/** The nodes whose backups go to S3, and to which bucket (the keys left sealed): the import's choice. */
export async function s3Buckets(db: Db): Promise<{ nodeId: number; endpoint: string; bucket: string }[]> {
  const rows = await db
    .selectFrom("backup_targets")
    .select(["node_id", "settings"])
    .orderBy("node_id")
    .execute();
  return rows.map((row) => {
    const settings = JSON.parse(row.settings) as Settings;
    return { nodeId: row.node_id, endpoint: settings.endpoint, bucket: settings.bucket };
  });
}
