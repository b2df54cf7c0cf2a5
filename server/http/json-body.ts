import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";

/**
 * How deep a JSON body may nest. No request of this API nests beyond a
 * dozen levels (a server definition is the deepest); a walk over the parsed
 * value (validation, the NUL guard, storage) recurses once a level, so a body
 * of thousands of levels would overflow the stack and answer 500.
 */
export const maxJsonDepth = 64;

/**
 * Whether JSON text nests deeper than `limit`, counted in one pass over the
 * raw text (objects and arrays opened outside strings), before anything
 * recursive sees it. Malformed text is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (prototype
 * poisoning refused) behind the depth check: too deep is 400 ErrInvalidJson.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    if (nestsDeeperThan(text, maxJsonDepth)) {
      done(
        new ApiError(400, "ErrInvalidJson", "the JSON body nests deeper than ${max} levels", {
          max: maxJsonDepth,
        }),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
