import type { SourceAllocation, SourceServer } from "./source-panel.ts";

export interface ServerPorts {
  /** The primary allocation: the server's `ip` and `port`. */
  primary?: { ip: string; port: number };
  /** Its other allocations there. */
  extra: { ip: string; port: number }[];
}

/** A server's allocations in the source, the primary one apart. */
export function portsOf(server: SourceServer, allocations: readonly SourceAllocation[]): ServerPorts {
  const mine = allocations.filter((a) => a.serverId === server.id);
  const primary = allocations.find((a) => a.id === server.allocationId);
  return {
    ...(primary ? { primary: { ip: primary.ip, port: primary.port } } : {}),
    extra: mine.filter((a) => a.id !== server.allocationId).map((a) => ({ ip: a.ip, port: a.port })),
  };
}

/**
 * The seam for the node's allocations (issue 40 waits on them): the primary port goes into the
 * server's `port` and `ip` today; extra allocations are reported until the panel keeps
 * allocations, when this records them on the server's node and answers what it could not.
 */
export function extraAllocationsNote(ports: ServerPorts): string | undefined {
  if (ports.extra.length === 0) return undefined;
  const list = ports.extra.map((a) => `${a.ip}:${a.port}`).join(", ");
  return `extra allocations ${list} are not brought over yet (this panel keeps no allocations yet)`;
}
