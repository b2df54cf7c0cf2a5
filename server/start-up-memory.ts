import type { Server } from "node:http";
import v8 from "node:v8";

/**
 * What `outpost serve` holds back until it serves its first request, to keep an idle panel small
 * (issue 41: RSS ≤ 64 MiB 10 s after start; bench/idle-rss.ts, bench/RESULTS.md). Start-up runs
 * its code once (modules, routes, migrations, caches), and its timers run a few queries every few
 * seconds, yet that is enough for V8 to grow its young generation to 16 MiB and to optimise what
 * looked hot (one small function is enough): the panel then carries the grown young generation,
 * the optimised code, the compiler thread's memory and the compiler's pages of the node binary,
 * 10-12 MiB, for work the interpreter does in a fraction of a millisecond. So until the first
 * request or socket, the young generation keeps its start size and no function is compiled beyond
 * bytecode; from then on V8 tiers up as usual, and what requests run is optimised as before
 * (tests/unit/server/start-up-memory.test.ts). V8 reads these flags at each decision, so setting
 * them at run time works. Imported by server/main.ts before anything else that runs code, for
 * every entry (`npm start`, a release's bin/outpost, the service unit); other commands keep V8's
 * defaults.
 */
const serving = process.argv[2] === "serve";
// bin/outpost.mjs sets the same before its freshness check; a release's entry comes straight here.
if (serving)
  for (const flag of ["--semi-space-growth-factor=1", "--no-turbofan", "--no-sparkplug"])
    v8.setFlagsFromString(flag);

/** V8's defaults again from the first request or socket the panel serves. */
export function defaultsOnFirstRequest(server: Server): void {
  if (!serving) return;
  const restore = () => {
    server.off("request", restore);
    server.off("upgrade", restore);
    v8.setFlagsFromString("--semi-space-growth-factor=2");
    v8.setFlagsFromString("--turbofan");
    v8.setFlagsFromString("--sparkplug");
  };
  server.prependListener("request", restore);
  server.prependListener("upgrade", restore);
}
