import type { TSchema } from "typebox";

/** Turns an answer into its JSON text. */
export type Serialize = (answer: unknown) => string;

const compiled = new WeakMap<TSchema, Serialize>();
let compiler: Promise<typeof import("fast-json-stringify")> | undefined;

/**
 * The serializer of a route's `answer` schema: fast-json-stringify (the
 * serializer of Fastify's response schemas, as on the panel), compiled from
 * the schema on its first use and kept. It writes only the fields the schema
 * names, so a field a handler's object carries for the node's own use never
 * leaves the node; a part the schema leaves open (`additionalProperties:
 * true`, `Type.Unsafe`, `Type.Unknown`: a task's operations, a server's
 * definition) goes out whole. It drops and coerces silently: the check of
 * answers (HttpServer's `checkAnswers`) is what catches a route answering the
 * wrong shape. The package is loaded, and each schema compiled, with the
 * first answer that needs it: an idle node loads neither.
 *
 * No slower than JSON.stringify on the big answers (bench/answer-serializer.ts,
 * one run, best of 7 rounds of 200, on a loaded 2-core machine): a 1,000-entry
 * folder listing in 0.25 of JSON.stringify's time (150 against 611 µs), a
 * 24-hour history of 1,440 points in 0.81 (3.6 against 4.4 ms), a 64 KiB
 * console in 0.74 (123 against 166 µs). Packed apart in the daemon bundle
 * (scripts/build-server.mjs): 75 KB more file, the same settled idle RSS
 * (54 MiB before and after, bench/idle-rss.ts, 2 rounds of 90 s).
 */
export async function serializerFor(schema: TSchema): Promise<Serialize> {
  const known = compiled.get(schema);
  if (known) return known;
  compiler ??= import("fast-json-stringify");
  const { default: build } = await compiler;
  const serialize = compiled.get(schema) ?? (build(schema as never) as Serialize);
  compiled.set(schema, serialize);
  return serialize;
}
