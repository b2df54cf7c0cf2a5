import { useEffect, useState } from "react";
import { listNodes, type Node } from "../../api/nodes";
import { quiet, reportSessionEnd } from "../../app/background";
import { usePolling } from "../../app/usePolling";
import { lastKnownNodes, rememberNodes } from "./nodeCache";

export const NODE_POLL_MS = 5000;

export interface NodeList {
  nodes: Node[] | undefined;
  /** True once this visit's own answer arrived (before that, `nodes` may be the last-known list). */
  fresh: boolean;
  failed: boolean;
}

const answered = (nodes: Node[]): NodeList => {
  void rememberNodes(nodes);
  return { nodes, fresh: true, failed: false };
};

/** The node list: last-known at once, then fresh, then re-read every few seconds for reachability. */
export function useNodeList(): NodeList {
  const [state, setState] = useState<NodeList>({ nodes: undefined, fresh: false, failed: false });

  useEffect(() => {
    let live = true;
    void lastKnownNodes().then((cached) => {
      if (live && cached) setState((s) => (s.nodes ? s : { ...s, nodes: cached }));
    });
    listNodes()
      .then((nodes) => live && setState(answered(nodes)))
      .catch(() => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, []);

  usePolling(async () => {
    try {
      setState(answered(await listNodes(quiet)));
    } catch (err) {
      reportSessionEnd(err);
    }
  }, NODE_POLL_MS);

  return state;
}
