import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

/**
 * A child process (argv: node, "outpost", the command) that imports server/start-up-memory.ts as `outpost serve` does (argv "serve"),
 * runs a hot function before and after the first request to a real HTTP server, and says whether
 * V8 optimised it each time (%GetOptimizationStatus, bit 16: optimised code).
 */
const script = `
import http from "node:http";
import { defaultsOnFirstRequest } from ${JSON.stringify(path.join(repoRoot, "server/start-up-memory.ts"))};
const status = new Function("f", "return %GetOptimizationStatus(f)");
const makeHot = () => (x) => { let s = 0; for (let i = 0; i < 50; i++) s += (i * x) % 7; return s; };
async function optimisedAfterWork(f) {
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 20000; i++) f(i);
    if (status(f) & 16) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}
const server = http.createServer((q, s) => s.end("ok"));
defaultsOnFirstRequest(server);
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const before = await optimisedAfterWork(makeHot());
await fetch("http://127.0.0.1:" + server.address().port + "/");
const after = await optimisedAfterWork(makeHot());
server.close();
console.log(JSON.stringify({ before, after }));
`;

function run(command: string): { before: boolean; after: boolean } {
  const out = execFileSync(
    process.execPath,
    ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", script, "outpost", command],
    { cwd: repoRoot, encoding: "utf8", timeout: 60_000 },
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
}

describe("what `outpost serve` holds back until its first request", () => {
  it("optimises nothing before the first request, and as usual after it", () => {
    expect(run("serve")).toEqual({ before: false, after: true });
  });

  it("leaves other commands with V8's defaults", () => {
    expect(run("migrate")).toEqual({ before: true, after: true });
  });
});
