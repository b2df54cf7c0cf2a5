import { get, set } from "idb-keyval";
import type { Server } from "../../api/servers";

// The first page of the last server list seen (DESIGN "last-known lists"), per user so that a
// shared browser never shows one account's servers to the next. Storage may be blocked: then the
// screen simply waits for the network.

const key = (userId: number) => `lastKnown.servers.${userId}`;

export async function lastKnownServers(
  userId: number,
): Promise<{ servers: Server[]; total: number } | undefined> {
  try {
    const saved = await get<{ servers: Server[]; total: number }>(key(userId));
    return saved && Array.isArray(saved.servers) ? saved : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberServers(userId: number, servers: Server[], total: number): Promise<void> {
  try {
    await set(key(userId), { servers, total });
  } catch {
    // not remembered
  }
}
