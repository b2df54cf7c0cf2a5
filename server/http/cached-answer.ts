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
export class CachedAnswers {
  private readonly cache: ReadCache<string>;

  /** `max` bounds how many answers are kept (a list page is a few KiB). */
  constructor(db: object, max = 256) {
    this.cache = new ReadCache(writeGeneration(db), max);
  }

  /** Sends the kept answer for `key`, or serialises, keeps and sends `load`'s. */
  async send(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<void> {
    let body = this.cache.get(key);
    if (body === undefined) {
      const stamp = this.cache.begin();
      // The route's JSON serialiser answers a string.
      body = reply.serialize(await load()) as string;
      this.cache.set(key, body, stamp);
    }
    reply.type("application/json; charset=utf-8").send(body);
  }
}
