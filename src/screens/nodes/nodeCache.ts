import { get, set } from "idb-keyval";
import type { Node } from "../../api/nodes";

// The last node list seen (DESIGN "last-known lists"): shown at once on the next visit while the
// fresh one loads. Storage may be missing or blocked; the screen then simply waits.

const KEY = "lastKnown.nodes";

export async function lastKnownNodes(): Promise<Node[] | undefined> {
  try {
    const list = await get<Node[]>(KEY);
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberNodes(list: Node[]): Promise<void> {
  try {
    await set(KEY, list);
  } catch {
    // not remembered: the next visit waits for the network
  }
}
