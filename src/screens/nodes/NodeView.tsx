import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { isApiError } from "../../api/errors";
import { deleteNode, getNode, type Node } from "../../api/nodes";
import { quiet, reportSessionEnd } from "../../app/background";
import type { ScreenProps } from "../../app/routes";
import { usePolling } from "../../app/usePolling";
import { confirmAsync } from "../../components/confirmStore";
import { NotPermitted } from "../../components/NotPermitted";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { hasScope } from "../../state/scopes";
import { formatAddress } from "./address";
import { NodeDeployment } from "./NodeDeployment";
import { NodeEdit } from "./NodeEdit";
import { NodeFeatures } from "./NodeFeatures";
import { ReachableBadge } from "./ReachableBadge";
import { NODE_POLL_MS } from "./useNodeList";
import "../../components/controls.css";
import "./nodes.css";

export default function NodeView({ params }: ScreenProps) {
  const id = Number(params.id);
  const [node, setNode] = useState<Node>();
  const [missing, setMissing] = useState(false);
  // Bumped after a save: the deployment config carries the ports.
  const [revision, setRevision] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();
  const allowed = hasScope("nodes.view");

  useEffect(() => {
    setNode(undefined);
    setMissing(false);
    if (!allowed || !Number.isInteger(id) || id < 0) {
      setMissing(true);
      return;
    }
    let live = true;
    getNode(id, { exempt: [400, 404] })
      .then((n) => live && setNode(n))
      .catch(() => live && setMissing(true));
    return () => {
      live = false;
    };
  }, [id, allowed]);

  // Reachability is a cheap re-read of the node.
  usePolling(
    async () => {
      if (!node) return;
      try {
        const fresh = await getNode(id, quiet);
        setNode((n) => (JSON.stringify(n) === JSON.stringify(fresh) ? n : fresh));
      } catch (err) {
        if (isApiError(err) && err.status === 404) setMissing(true);
        reportSessionEnd(err);
      }
    },
    NODE_POLL_MS,
    `${id}:${!!node}`,
  );

  if (!allowed) return <NotPermitted />;
  if (missing) {
    return (
      <Panel title={<Trans>Node not found</Trans>}>
        <p>
          <Trans>There is no node with this id.</Trans>
        </p>
        <Link href="/nodes">
          <Trans>Back to the nodes</Trans>
        </Link>
      </Panel>
    );
  }
  if (!node) return <Spinner />;

  const remove = async () => {
    const yes = await confirmAsync({
      title: t`Delete node ${node.name}?`,
      body: t`The panel forgets this node and its secret. A node that still has servers cannot be deleted. The daemon on its host keeps running until you stop it there.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setDeleting(true);
    try {
      await deleteNode(node.id);
      toastSuccess(t`Node ${node.name} deleted`);
      navigate("/nodes");
    } catch {
      // the global handler says why (e.g. the node still has servers)
      setDeleting(false);
    }
  };

  return (
    <div className="node-view">
      <header className="node-head">
        <Link href="/nodes" className="back-link">
          <ScreenIcon name="back" size={18} className="flip-rtl" />
          <Trans>Nodes</Trans>
        </Link>
        <div className="node-head-row">
          <div className="node-head-main">
            <div className="node-head-title">
              <h1 data-testid="node-title">{node.name}</h1>
              {node.isLocal && (
                <span className="tag">
                  <ScreenIcon name="home" size={12} />
                  {t`Local`}
                </span>
              )}
              <ReachableBadge reachable={node.reachable} />
            </div>
            <p className="muted node-head-address">{formatAddress(node.publicHost, node.publicPort)}</p>
          </div>
          {!node.isLocal && hasScope("nodes.delete") && (
            <button
              type="button"
              className="btn btn-outline color-error"
              onClick={remove}
              disabled={deleting}
            >
              <ScreenIcon name="trash" size={18} />
              <Trans>Delete</Trans>
            </button>
          )}
        </div>
      </header>
      <div className="node-columns">
        <NodeEdit
          key={node.id}
          node={node}
          canEdit={hasScope("nodes.edit")}
          onSaved={(saved) => {
            setNode(saved);
            setRevision((r) => r + 1);
          }}
        />
        <NodeFeatures id={node.id} reachable={node.reachable} />
        {!node.isLocal && hasScope("nodes.deploy") && <NodeDeployment id={node.id} revision={revision} />}
      </div>
    </div>
  );
}
