import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorMessage } from "../../../src/i18n/errorMessages";

const serverDir = path.resolve(import.meta.dirname, "../../../server");

/** Every error code the server's code names: a string literal that is a code (`"ErrNoSpace"`). */
function serverCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const file of fs.readdirSync(serverDir, { recursive: true }).map(String)) {
    if (!file.endsWith(".ts")) continue;
    const text = fs.readFileSync(path.join(serverDir, file), "utf8");
    for (const [, code] of text.matchAll(/["'`](Err[A-Z][A-Za-z0-9]*)["'`]/g))
      if (!codes.has(code)) codes.set(code, file);
  }
  return codes;
}

describe("API error codes in the client's words", () => {
  it("has a message, in the catalogs, for every code the server can send", () => {
    const codes = serverCodes();
    expect(codes.size).toBeGreaterThan(100);
    const missing = [...codes]
      .filter(([code]) => !errorMessage(code))
      .map(([code, file]) => `${code} (server/${file})`);
    // A new code needs its line in src/i18n/errorMessages.ts, translated in every locale (npm run i18n:check).
    expect(missing).toEqual([]);
  });
});
