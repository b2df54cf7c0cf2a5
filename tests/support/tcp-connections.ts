import fs from "node:fs";

/**
 * The established TCP connections the process `pid` holds to `port` on
 * some peer, read from /proc (the socket inodes of its open files, matched
 * in the kernel's TCP tables), so no tool beyond Linux itself is needed.
 * Answers each connection's local port.
 */
export function tcpConnectionsTo(pid: number, port: number): number[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) inodes.add(socket[1]);
  }
  const established = "01";
  const found: number[] = [];
  for (const table of ["tcp", "tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, "utf8");
    } catch {
      continue; // no IPv6 here
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
      if (state !== established || !inodes.has(inode)) continue;
      if (Number.parseInt(remote.split(":")[1], 16) !== port) continue;
      found.push(Number.parseInt(local.split(":")[1], 16));
    }
  }
  return found;
}
