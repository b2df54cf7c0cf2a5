import type { FastifyReply } from "fastify";
import { ReadCache } from "../db/read-cache.ts";
import { writeGeneration } from "../db/write-generation.ts";

/**
 * A route's answers kept serialised, by what decides them (who asks, the
 * normalised query): a repeated list costs neither its queries nor its
 * serialisation. They are dropped as soon as the database may have changed
 * (read-cache.ts); the route's access rule is still checked on every call,
 * before the cache is asked. The bytes are those the route's response schema
 * serialises, sent with the content type Fastify gives JSON.
 */
const json = "application/json; charset=utf-8";

export class CachedAnswers {
  private readonly cache: ReadCache<string>;

  /** `max` bounds how many answers are kept (a list page is a few KiB). */
  constructor(db: object, max = 256) {
    this.cache = new ReadCache(writeGeneration(db), max);
  }

  /** Sends the kept answer for `key` at once, or serialises, keeps and sends `load`'s. */
  send(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> | undefined {
    const body = this.cache.get(key);
    if (body === undefined) return this.fill(reply, key, load);
    reply.type(json).send(body);
  }

  private async fill(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> {
    const stamp = this.cache.begin();
    // The route's JSON serialiser answers a string.
    const body = reply.serialize(await load()) as string;
    this.cache.set(key, body, stamp);
    reply.type(json).send(body);
  }
}
