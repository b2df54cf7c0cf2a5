import { lastKnownAt } from "../../api/client";
import { listNodes, type Node } from "../../api/nodes";
import { quiet, reportSessionEnd } from "../../app/background";
import { useLoad } from "../../app/useLoad";
import { usePolling } from "../../app/usePolling";
import { lastKnown, remember } from "../../offline/lastKnown";
import { backOnline } from "../../offline/network";

export const NODE_POLL_MS = 5000;

export interface NodeList {
  nodes: Node[] | undefined;
  /** True once this visit's own answer arrived (before that, `nodes` may be the last-known list). */
  fresh: boolean;
  failed: boolean;
  /** When the shown list was read (the last-known one's own time until a fresh one arrives). */
  at?: number;
}

const answered = (nodes: Node[]): NodeList => {
  // Offline, the service worker answers with its last-known copy: shown with its age.
  const kept = lastKnownAt(nodes);
  if (kept === undefined) void remember("nodes", nodes);
  return { nodes, fresh: kept === undefined, failed: false, at: kept ?? Date.now() };
};

/** The node list: last-known at once, then fresh, then re-read every few seconds for reachability. */
export function useNodeList(): NodeList {
  const cached = useLoad(() => lastKnown("nodes"), []);
  // Read at once, and again when the panel is back in reach; a failed read keeps what is shown.
  const read = useLoad(() => listNodes().then(answered), [backOnline.value], { keep: true });
  const { setData } = read;

  usePolling(async () => {
    try {
      setData(answered(await listNodes(quiet)));
    } catch (err) {
      reportSessionEnd(err);
    }
  }, NODE_POLL_MS);

  const failed = read.error !== undefined;
  if (read.data) return failed ? { ...read.data, failed } : read.data;
  return { nodes: cached.data?.value, at: cached.data?.at, fresh: false, failed };
}
