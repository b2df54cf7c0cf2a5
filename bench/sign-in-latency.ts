/**
 * What counting sign-in failures in the database (server/panel/shared-state.ts)
 * costs a sign-in, beside the same panel from another checkout (e.g. main's,
 * which counted them in memory), on SQLite and on PostgreSQL, in one run.
 *
 * Per build and database: 60 failed sign-ins (each from its own address, so
 * none is held back: the throttle reads and writes its rows every time) and
 * 60 successful ones, one after another; median and p90 in ms. The password
 * hash (argon2id) is most of either.
 *
 * Run: BENCH_BEFORE=<other checkout> node --import tsx bench/sign-in-latency.ts
 */
import { basename } from "node:path";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";
import { startPostgres } from "../tests/support/postgres-cluster.ts";

const attempts = 60;
const before = process.env.BENCH_BEFORE;
const builds: [string, string | undefined][] = [
  ...(before ? [[basename(before), before] as [string, string]] : []),
  ["this checkout", undefined],
];
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

async function timed(base: string, password: string, address: string): Promise<number> {
  const client = new PanelClient(base);
  await client.prime();
  const start = performance.now();
  const res = await client.post(
    "/auth/login",
    { email: admin.email, password },
    { headers: { "x-forwarded-for": address } },
  );
  const ms = performance.now() - start;
  if (res.status !== (password === admin.password ? 200 : 400)) throw new Error(`sign-in: ${res.status}`);
  return ms;
}

async function main() {
  const cluster = await startPostgres();
  const rows: string[] = [];
  try {
    for (const db of ["sqlite", "postgres"] as const) {
      // Each build measured in turn, twice, alternating: the machine's load drifts.
      const results = new Map<string, { failed: number[]; ok: number[] }>();
      for (let round = 0; round < 2; round++) {
        for (const [label, checkout] of builds) {
          const panel = await startPanel({
            checkout,
            postgresUrl: db === "postgres" ? cluster.url : undefined,
            env: { OUTPOST_TRUST_PROXY: "127.0.0.1" },
          });
          try {
            const r = results.get(label) ?? { failed: [], ok: [] };
            for (let i = 0; i < 5; i++) await timed(panel.url, admin.password, "192.0.2.1"); // warm-up
            for (let i = 0; i < attempts / 2; i++) {
              r.failed.push(await timed(panel.url, "wrong-password", `198.18.${round}.${i}`));
              r.ok.push(await timed(panel.url, admin.password, "192.0.2.1"));
            }
            results.set(label, r);
          } finally {
            await panel.stop();
          }
        }
      }
      for (const [label, r] of results)
        rows.push(
          `| ${db} | ${label} | ${quantile(r.failed, 0.5).toFixed(1)} | ${quantile(r.failed, 0.9).toFixed(1)} | ${quantile(r.ok, 0.5).toFixed(1)} | ${quantile(r.ok, 0.9).toFixed(1)} |`,
        );
    }
  } finally {
    cluster.stop();
  }
  console.log("| database | build | failed p50 ms | failed p90 ms | success p50 ms | success p90 ms |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

await main();
