/**
 * The panel at idle (`outpost serve` with the local node and SQLite): time from
 * spawn to its first answer, and resident memory after 5 s of idling, for the
 * ahead-of-time build (dist-server/, what `npm start` runs) beside the
 * TypeScript sources through tsx (what ran before), in one run.
 *
 * Run: npm run build && node --import tsx bench/idle-rss.ts
 */
import fs from "node:fs";
import { startPanel } from "../tests/support/panel-process.ts";

function rssMiB(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

async function measure(fromSource: boolean) {
  const started = performance.now();
  const panel = await startPanel({ env: { OUTPOST_FROM_SOURCE: String(fromSource) } });
  const firstAnswerMs = Math.round(performance.now() - started);
  await new Promise((r) => setTimeout(r, 5000));
  const rss = rssMiB(panel.pid);
  await panel.stop();
  return { firstAnswerMs, rss };
}

const rows: string[] = [];
for (const [label, fromSource] of [
  ["ahead-of-time build", false],
  ["sources through tsx", true],
] as const) {
  const { firstAnswerMs, rss } = await measure(fromSource);
  rows.push(`| ${label} | ${firstAnswerMs} ms | ${rss} MiB |`);
}
console.log("| panel | spawn to first answer | idle RSS |\n|---|---|---|");
console.log(rows.join("\n"));
