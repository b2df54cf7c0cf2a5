import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import type { UidBlock } from "../servers/uid-blocks.ts";

/**
 * Game processes share the host's network (they listen on its ports), so by
 * themselves they reach every service of the host that listens on loopback:
 * the panel's own HTTP port, a database, a cache. On a root node the node
 * closes that door with one netfilter chain of its own (iptables, both IPv4
 * and IPv6): a new connection that a uid of this node's server block opens
 * to any address of the host (all go out through `lo`) is refused, except
 * to the ports of that server's own port variables. Replies to connections
 * made from outside (a player on the same host, the node querying its
 * server) are not new, so they pass; the outside world is not touched.
 */
export interface LoopbackGuard {
  /** What the start line says: the tool and the rule. */
  readonly description: string;
  /** The server that runs as `uid` may connect to these loopback ports of its own (replacing any before). */
  allow(uid: number, ports: number[]): Promise<void>;
  /** Removes the chain and its jump (the node is stopping; its servers stop with it). */
  remove(): Promise<void>;
}

export type LoopbackGuardResult = { guard: LoopbackGuard } | { guard?: undefined; reason: string };

const systemPath = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };

/** One chain a node: named by its uid block, which no other node on the host holds. */
const chainName = (block: UidBlock): string => `OUTPOST-LO-${block.index}`;

interface Family {
  tool: string;
  restore: string;
}

const families = (): Family[] => [
  { tool: "iptables", restore: "iptables-restore" },
  // Without IPv6 on the host there is no ::1 to guard.
  ...(fs.existsSync("/proc/net/if_inet6") ? [{ tool: "ip6tables", restore: "ip6tables-restore" }] : []),
];

/** The chain's whole text for `*-restore --noflush` (declaring a chain there also empties it). */
function chainRules(chain: string, allowed: Map<number, number[]>): string {
  const lines = ["*filter", `:${chain} - [0:0]`];
  lines.push(`-A ${chain} -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN`);
  for (const [uid, ports] of allowed) {
    for (const port of ports) {
      for (const proto of ["tcp", "udp"]) {
        lines.push(`-A ${chain} -m owner --uid-owner ${uid} -p ${proto} --dport ${port} -j RETURN`);
      }
    }
  }
  // A reset makes connect() fail at once with ECONNREFUSED, as if nothing listened.
  lines.push(`-A ${chain} -p tcp -j REJECT --reject-with tcp-reset`, `-A ${chain} -j REJECT`, "COMMIT", "");
  return lines.join("\n");
}

const jumpRule = (block: UidBlock, chain: string) => [
  "OUTPUT",
  "-o",
  "lo",
  "-m",
  "owner",
  "--uid-owner",
  `${block.first}-${block.first + block.count - 1}`,
  "-j",
  chain,
];

/** `-w`: waits for the xtables lock that another node or tool on the host may hold, rather than failing. */
function run(program: string, args: string[], input?: string): { ok: boolean; text: string } {
  const waiting = program.endsWith("-restore") ? args : ["-w", ...args];
  const result = spawnSync(program, waiting, { input, env: systemPath, timeout: 10_000 });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    return { ok: false, text: missing ? `${program} is not installed` : result.error.message };
  }
  return { ok: result.status === 0, text: `${program}: ${result.stderr.toString().trim()}` };
}

function runAsync(program: string, args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(program, args, { env: systemPath, timeout: 10_000 }, (error, _out, stderr) =>
      error ? reject(new Error(`${program}: ${String(stderr).trim() || error.message}`)) : resolve(),
    );
    child.stdin?.end(input ?? "");
  });
}

/**
 * Installs this node's chain (empty of allowances) and its jump from OUTPUT, or says why it
 * cannot. Only a root node can: it alone gives servers uids of their own to match on.
 */
export function installLoopbackGuard(block: UidBlock): LoopbackGuardResult {
  const chain = chainName(block);
  const installed: Family[] = [];
  for (const family of families()) {
    const restored = run(family.restore, ["-w", "--noflush"], chainRules(chain, new Map()));
    if (!restored.ok) {
      for (const done of installed) removeSync(done, block, chain);
      return { reason: `${restored.text} (apt-get install iptables)` };
    }
    const jump = jumpRule(block, chain);
    if (!run(family.tool, ["-C", ...jump]).ok) {
      const inserted = run(family.tool, ["-I", ...jump.slice(0, 1), "1", ...jump.slice(1)]);
      if (!inserted.ok) {
        removeSync(family, block, chain);
        for (const done of installed) removeSync(done, block, chain);
        return { reason: inserted.text };
      }
    }
    installed.push(family);
  }
  const allowed = new Map<number, number[]>();
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };
  return {
    guard: {
      description: `${installed.map((f) => f.tool).join("/")} chain ${chain}`,
      allow: (uid, ports) =>
        serial(async () => {
          const wanted = [...new Set(ports)].sort((a, b) => a - b);
          if (String(allowed.get(uid) ?? []) === String(wanted)) return;
          allowed.set(uid, wanted);
          for (const family of installed)
            await runAsync(family.restore, ["-w", "--noflush"], chainRules(chain, allowed));
        }),
      remove: () =>
        serial(async () => {
          for (const family of installed) removeSync(family, block, chain);
        }),
    },
  };
}

function removeSync(family: Family, block: UidBlock, chain: string): void {
  const jump = jumpRule(block, chain);
  while (run(family.tool, ["-C", ...jump]).ok) {
    if (!run(family.tool, ["-D", ...jump]).ok) break;
  }
  run(family.tool, ["-F", chain]);
  run(family.tool, ["-X", chain]);
}
