import { portVariables } from "../../templates/index.ts";
import { allocationsOf, claimAllocation } from "../port-holders.ts";
import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";
import type { SourceAllocation, SourceServer } from "./source-panel.ts";

export interface ServerPorts {
  /** The primary allocation: the server's `ip` and `port`. */
  primary?: { ip: string; port: number };
  /** Its other allocations there. */
  extra: SourceAllocation[];
}

/** A server's allocations in the source, the primary one apart. */
export function portsOf(server: SourceServer, allocations: readonly SourceAllocation[]): ServerPorts {
  const mine = allocations.filter((a) => a.serverId === server.id);
  const primary = allocations.find((a) => a.id === server.allocationId);
  return {
    ...(primary ? { primary: { ip: primary.ip, port: primary.port } } : {}),
    extra: mine.filter((a) => a.id !== server.allocationId),
  };
}

const address = (a: { ip: string; port: number }) => `${a.ip}:${a.port}`;

/** What the dry run and the run say of a server's ports. */
export function portsNote(ports: ServerPorts): string | undefined {
  if (!ports.primary) return undefined;
  const extra = ports.extra.length ? ` and extra ${ports.extra.map(address).join(", ")}` : "";
  return `ports ${address(ports.primary)}${extra}`;
}

/** "0.0.0.0: 25565-25567, 27000; 10.0.0.5: 7777": a node's ports in few words. */
function portList(allocations: readonly SourceAllocation[]): string {
  const byIp = new Map<string, number[]>();
  for (const a of allocations) byIp.set(a.ip, [...(byIp.get(a.ip) ?? []), a.port]);
  return [...byIp]
    .map(([ip, ports]) => {
      const sorted = [...new Set(ports)].sort((x, y) => x - y);
      const spans: string[] = [];
      for (let i = 0; i < sorted.length; ) {
        let j = i;
        while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
        spans.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
        i = j + 1;
      }
      return `${ip}: ${spans.join(", ")}`;
    })
    .join("; ");
}

/** The record of a source allocation: per Outpost node, as a later run without --node makes other nodes. */
const poolKey = (a: SourceAllocation, node: number) => `${a.id}@${node}`;

/**
 * Every allocation of each source node into the pool of the Outpost node it maps onto (the free
 * ones too: they stay free here), an ip:port the node has already mapped onto that one. Fills
 * `run.allocations` (source id → ours; a dry run's new ones are not there).
 */
export async function importAllocations(run: PanelImport): Promise<void> {
  const { db, nodeAllocations } = run.services;
  for (const node of run.source.nodes) {
    const ours = run.nodes.get(node.id);
    const mine = run.source.allocations.filter((a) => a.nodeId === node.id);
    if (mine.length === 0) continue;
    const label = (list: SourceAllocation[]) => `allocations ${portList(list)} of node ${node.name}`;
    if (ours === undefined) {
      run.line("skipped", `${label(mine)}: the node was not brought over`);
      continue;
    }
    const kept: SourceAllocation[] = [];
    const mapped: SourceAllocation[] = [];
    const fresh: SourceAllocation[] = [];
    for (const a of mine) {
      const before = run.earlier("allocation", poolKey(a, ours));
      if (before) {
        run.allocations.set(a.id, Number(before));
        kept.push(a);
        continue;
      }
      const here =
        ours < 0
          ? undefined
          : await db
              .selectFrom("allocations")
              .select("id")
              .where("node_id", "=", ours)
              .where("ip", "=", a.ip)
              .where("port", "=", a.port)
              .executeTakeFirst();
      if (here) {
        run.allocations.set(a.id, here.id);
        await run.record("allocation", poolKey(a, ours), here.id);
        mapped.push(a);
      } else fresh.push(a);
    }
    if (kept.length) run.line("kept", `${label(kept)}: imported before (node ${ours})`);
    if (mapped.length) run.line("mapped", `${label(mapped)} → those node ${ours} has already`);
    if (fresh.length === 0) continue;
    if (!run.options.apply) {
      run.line(
        "created",
        `${label(fresh)} in the pool of ${ours < 0 ? `the new node ${node.name}` : `node ${ours}`}`,
      );
      continue;
    }
    try {
      for (const a of fresh) {
        const [made] = await nodeAllocations.add(ours, {
          ip: a.ip,
          ports: String(a.port),
          ...(a.alias ? { alias: a.alias } : {}),
        });
        if (!made) continue;
        run.allocations.set(a.id, made.id);
        await run.record("allocation", poolKey(a, ours), made.id);
      }
      run.line("created", `${label(fresh)} in the pool of node ${ours}`);
    } catch (err) {
      run.line("skipped", `${label(fresh)}: ${errorText(err)} (run the import again to go on)`);
    }
  }
}

/**
 * The port the template's primary port variable takes at the server's creation (the `ports` of a
 * creation): its primary allocation's, so that it keeps its address, or is refused (taken here)
 * rather than moved. An egg's template has `port` alone; its other ports come as extras.
 * Undefined where the node has no pool (a dry run's new node) or the server had no allocation.
 */
export async function portChoices(
  run: PanelImport,
  server: SourceServer,
  ours: number,
  definition: Record<string, unknown>,
): Promise<Record<string, number> | undefined> {
  const { primary } = portsOf(server, run.source.allocations);
  const [variable] = portVariables(definition.data as never);
  if (!primary || !variable || ours < 0 || !(await run.services.servers.ports.pooled(ours))) return undefined;
  return { [variable]: primary.port };
}

/**
 * The server's extra allocations, once it exists here (and again on each later run, so that one
 * cut short between the two goes on): each one it held there that no port variable took already.
 */
export async function claimExtras(run: PanelImport, server: SourceServer, id: string): Promise<void> {
  if (!run.options.apply) return;
  const { db } = run.services;
  const extra = portsOf(server, run.source.allocations).extra;
  const held = new Set((await allocationsOf(db, id)).map((row) => row.id));
  for (const a of extra) {
    const ours = run.allocations.get(a.id);
    if (run.earlier("server_allocation", a.id)) continue;
    const label = `extra allocation ${address(a)} of ${server.name}`;
    if (ours === undefined) {
      run.line("skipped", `${label}: it was not brought over to the node's pool`);
      continue;
    }
    if (!held.has(ours) && !(await claimAllocation(db, ours, id, null, false))) {
      const holder = await db
        .selectFrom("allocations")
        .select("server_id")
        .where("id", "=", ours)
        .executeTakeFirst();
      run.line("skipped", `${label}: the server ${holder?.server_id ?? "?"} here holds it`);
      continue;
    }
    await run.record("server_allocation", a.id, ours);
    run.line("created", `${label}, held by ${id}`);
  }
}
