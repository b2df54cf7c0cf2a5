/** The little of s3rver (an S3 stand-in for tests; it ships no types) that the tests use. */
declare module "s3rver" {
  import type { Server } from "node:http";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string; configs: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** The node:http server, once run() resolved. */
    readonly httpServer: Server;
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
