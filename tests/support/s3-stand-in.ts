import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { freePort } from "./free-port.ts";

/** s3rver's own account: any other access key is refused. */
export const s3Keys = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const s3Bucket = "outpost-backups";

/**
 * s3rver (an S3 emulator from npm) on 127.0.0.1, standing in for the real
 * service: the node talks to it with the AWS SDK as it would to AWS, MinIO or
 * Garage. `requests` records what it was asked; `onRequest` may cut a
 * connection (a network failure midway). stop() and start() keep its data.
 */
export class S3StandIn {
  readonly requests: string[] = [];
  onRequest?: (req: IncomingMessage) => void;
  private server?: S3rver;
  private readonly directory = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-s3rver-"));

  private constructor(readonly port: number) {}

  static async start(): Promise<S3StandIn> {
    const standIn = new S3StandIn(await freePort());
    await standIn.start();
    return standIn;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new S3rver({
      address: "127.0.0.1",
      port: this.port,
      silent: true,
      directory: this.directory,
      configureBuckets: [{ name: s3Bucket, configs: [] }],
    });
    await server.run();
    server.httpServer.prependListener("request", (req: IncomingMessage) => {
      this.requests.push(`${req.method} ${req.url}`);
      this.onRequest?.(req);
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.directory, { recursive: true, force: true });
  }

  /** A target for the node, path-style, in this bucket under `prefix`. */
  target(prefix: string) {
    return {
      type: "s3" as const,
      endpoint: this.endpoint,
      region: "us-east-1",
      bucket: s3Bucket,
      prefix,
      forcePathStyle: true,
      ...s3Keys,
    };
  }

  private client(): S3Client {
    return new S3Client({
      endpoint: this.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: s3Keys,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async keysUnder(prefix: string): Promise<string[]> {
    const listed = await this.client().send(new ListObjectsV2Command({ Bucket: s3Bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((o) => o.Key ?? "");
  }

  /** Overwrites an object (a test's damage to a stored backup). */
  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client().send(new PutObjectCommand({ Bucket: s3Bucket, Key: key, Body: bytes }));
  }

  async bytes(key: string): Promise<Buffer> {
    const answer = await this.client().send(new GetObjectCommand({ Bucket: s3Bucket, Key: key }));
    const body = answer.Body as { transformToByteArray(): Promise<Uint8Array> };
    return Buffer.from(await body.transformToByteArray());
  }
}
