import type { FastifyReply } from "fastify";
import { ReadCache } from "../db/read-cache.ts";
import { writeGeneration } from "../db/write-generation.ts";
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

export class CachedAnswers {
  private readonly cache: ReadCache<Answer>;

  /** `max` bounds how many answers are kept (a list page is a few KiB). */
  constructor(db: object, max = 256) {
    this.cache = new ReadCache(writeGeneration(db), max);
  }

  /** Sends the kept answer for `key` at once, or serialises, keeps and sends `load`'s. */
  send(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> | undefined {
    const answer = this.cache.get(key);
    if (answer === undefined) return this.fill(reply, key, load);
    sendAnswer(reply, answer);
  }

  private async fill(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> {
    const stamp = this.cache.begin();
    // The route's JSON serialiser answers a string.
    const answer: Answer = { body: Buffer.from(reply.serialize(await load()) as string) };
    this.cache.set(key, answer, stamp);
    sendAnswer(reply, answer);
  }
}

function sendAnswer(reply: FastifyReply, answer: Answer): void {
  reply.type(json);
  const headers = reply.request.headers;
  // As compression.ts: small answers and requests with x-no-compression go as they are.
  const compressible = answer.body.length >= compressThreshold && headers["x-no-compression"] === undefined;
  const encoding = compressible ? preferredEncoding(headers["accept-encoding"]) : undefined;
  if (!compressible) reply.send(answer.body);
  else if (encoding === undefined) sendEncoded(reply, answer.body, undefined);
  else {
    answer[encoding] ??= compressSync[encoding](answer.body);
    sendEncoded(reply, answer[encoding], encoding);
  }
}
