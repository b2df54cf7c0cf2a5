import { useEffect, useState } from "react";
import { lastKnownAt } from "../../api/client";
import { listNodes, type Node } from "../../api/nodes";
import { quiet, reportSessionEnd } from "../../app/background";
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
  const [state, setState] = useState<NodeList>({ nodes: undefined, fresh: false, failed: false });
  const again = backOnline.value;

  useEffect(() => {
    let live = true;
    void lastKnown("nodes").then((cached) => {
      if (live && cached) setState((s) => (s.nodes ? s : { ...s, nodes: cached.value, at: cached.at }));
    });
    return () => {
      live = false;
    };
  }, []);

  // Read at once, and again when the panel is back in reach.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger
  useEffect(() => {
    let live = true;
    listNodes()
      .then((nodes) => live && setState(answered(nodes)))
      .catch(() => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [again]);

  usePolling(async () => {
    try {
      setState(answered(await listNodes(quiet)));
    } catch (err) {
      reportSessionEnd(err);
    }
  }, NODE_POLL_MS);

  return state;
}
