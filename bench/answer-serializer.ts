/**
 * The daemon's answers serialised by fast-json-stringify (compiled from each
 * route's `answer` schema, server/daemon/http/answer-serializer.ts) against
 * JSON.stringify, on the big answers a panel asks for: a 1,000-entry folder
 * listing, a 24-hour history of 1,440 points (the cap, a sample a minute,
 * each with min and max), a node's history and a console of 64 KiB. One run,
 * both in turn, best of several rounds.
 *
 *   npx tsx bench/answer-serializer.ts
 */
import { performance } from "node:perf_hooks";
import type { TSchema } from "typebox";
import { FileListing } from "../server/contract/node/file-wire.ts";
import { HistoryView } from "../server/contract/node/history-wire.ts";
import { ConsoleView } from "../server/contract/node/server-wire.ts";
import { serializerFor } from "../server/daemon/http/answer-serializer.ts";

const listing = [
  { name: "..", isFile: false },
  ...Array.from({ length: 100 }, (_, i) => ({ name: `world-${i}`, isFile: false })),
  ...Array.from({ length: 900 }, (_, i) => ({
    name: `region-r.${i}.${-i}.mca`,
    isFile: true,
    size: 4_096 * (i + 1),
    modifyTime: 1_764_000_000 + i,
    extension: ".mca",
  })),
];
const metrics = (i: number) => ({
  cpu: 12.5 + (i % 40) / 3,
  memory: 2_147_483_648 + i * 4096,
  disk: 9e9 + i,
});
const history = {
  range: "24h",
  step: 60,
  points: Array.from({ length: 1440 }, (_, i) => ({
    time: 1_764_000_000_000 + i * 60_000,
    ...metrics(i),
    players: i % 20,
    min: metrics(i - 1),
    max: metrics(i + 1),
  })),
};
const line = '[12:00:00] [Server thread/INFO]: Player joined the game "quoted" ünïcode\n';
const consoleView = { epoch: 1_764_000_000_000_000, logs: line.repeat(Math.ceil(65_536 / line.length)) };

const cases: [string, TSchema, unknown][] = [
  ["file listing, 1,000 entries", FileListing, listing],
  ["history, 24 h (1,440 points)", HistoryView, history],
  ["console, 64 KiB", ConsoleView, consoleView],
];

function timed(run: () => string, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const started = performance.now();
    for (let i = 0; i < rounds; i++) run();
    best = Math.min(best, (performance.now() - started) / rounds);
  }
  return best;
}

for (const [name, schema, answer] of cases) {
  const serialize = await serializerFor(schema);
  if (JSON.stringify(JSON.parse(serialize(answer))) !== JSON.stringify(answer)) {
    throw new Error(`${name}: the serialiser's JSON differs from JSON.stringify's`);
  }
  const plain = timed(() => JSON.stringify(answer), 200);
  const compiled = timed(() => serialize(answer), 200);
  console.log(
    `${name}: JSON.stringify ${(plain * 1000).toFixed(0)} µs, fast-json-stringify ${(compiled * 1000).toFixed(0)} µs, ` +
      `ratio ${(compiled / plain).toFixed(2)} (below 1 is faster)`,
  );
}
