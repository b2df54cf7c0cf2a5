import type { FastifyReply } from "fastify";
import { ReadCache } from "../../db/read-cache.ts";
import { writeGeneration } from "../../db/write-generation.ts";
import { preferredEncoding } from "./accept-encoding.ts";
import { compressSync, compressThreshold, sendEncoded } from "./compression.ts";

/**
 * A route's answers kept serialised, by what decides them (who asks, the
 * normalised query): a repeated list costs neither its queries nor its
 * serialisation. They are dropped as soon as the database may have changed
 * (read-cache.ts); the route's access rule is still checked on every call,
 * before the cache is asked. The bytes are those the route's response schema
 * serialises, sent with the content type Fastify gives JSON.
 *
 * A browser asks with Accept-Encoding, so the br or gzip copy is kept next to
 * the answer too, made the first time it is asked for, with the settings
 * compression.ts uses for every answer: a repeated list costs no
 * compression either, and goes out past compression.ts's hook
 * (sendEncoded), which would only make the same choice again.
 *
 * It runs in the route's handler, inside Fastify's whole lifecycle: every
 * hook (the guard, and any rule added later) applies to a kept answer too.
 */
const json = "application/json; charset=utf-8";

interface Answer {
  /**
   * Bytes, not the serialised string: Fastify then neither measures a string for Content-Length
   * nor Node encodes 4 KiB of text into the socket on every call.
   */
  readonly body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface CachedAnswersOptions {
  /** Bounds how many answers are kept (a list page is a few KiB). */
  max?: number;
  /** What else the answers depend on that changes without a write (a key of it, asked for on every call). */
  alsoOn?: () => string;
}

export class CachedAnswers {
  private readonly cache: ReadCache<Answer>;
  private readonly alsoOn: (() => string) | undefined;

  constructor(db: object, { max = 256, alsoOn }: CachedAnswersOptions = {}) {
    this.cache = new ReadCache(writeGeneration(db), max);
    this.alsoOn = alsoOn;
  }

  /** Sends the kept answer for `key` at once, or serialises, keeps and sends `load`'s. */
  send(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> | undefined {
    const answer = this.cache.get(this.fullKey(key));
    if (answer === undefined) return this.fill(reply, key, load);
    this.sendAnswer(reply, answer);
  }

  private async fill(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> {
    const fullKey = this.fullKey(key);
    const stamp = this.cache.begin();
    // The route's JSON serialiser answers a string.
    const answer: Answer = { body: Buffer.from(reply.serialize(await load()) as string) };
    this.cache.set(fullKey, answer, stamp);
    this.sendAnswer(reply, answer);
  }

  private fullKey(key: string): string {
    return this.alsoOn === undefined ? key : `${key}\n${this.alsoOn()}`;
  }

  private sendAnswer(reply: FastifyReply, answer: Answer): void {
    reply.type(json);
    const headers = reply.request.headers;
    // As compression.ts: small answers and requests with x-no-compression go as they are.
    const compressible = answer.body.length >= compressThreshold && headers["x-no-compression"] === undefined;
    const encoding = compressible ? preferredEncoding(headers["accept-encoding"]) : undefined;
    if (encoding !== undefined) answer[encoding] ??= compressSync[encoding](answer.body);
    const body = encoding === undefined ? answer.body : (answer[encoding] as Buffer);
    if (compressible) sendEncoded(reply, body, encoding);
    else reply.send(body);
  }
}
