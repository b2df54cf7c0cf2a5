import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { lazy, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import { isApiError } from "../../api/errors";
import { deleteNode, getNode } from "../../api/nodes";
import { quiet, reportSessionEnd } from "../../app/background";
import type { ScreenProps } from "../../app/routes";
import { usePolling } from "../../app/usePolling";
import { confirmAsync } from "../../components/confirmStore";
import { NotPermitted } from "../../components/NotPermitted";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { LastKnownNote } from "../../offline/LastKnownNote";
import { offlineReason } from "../../offline/NeedsNetwork";
import { NotKeptOffline } from "../../offline/NotKeptOffline";
import { online } from "../../offline/network";
import { useKeptDetail } from "../../offline/useKeptDetail";
import { hasScope } from "../../state/scopes";
import { DeleteButton } from "../DeleteButton";
import { formatAddress } from "./address";
import { NodeAllocations } from "./NodeAllocations";
import { NodeBackupTarget } from "./NodeBackupTarget";
import { NodeDeployment } from "./NodeDeployment";
import { NodeEdit } from "./NodeEdit";
import { NodeFeatures } from "./NodeFeatures";
import { ReachableBadge } from "./ReachableBadge";
import { NODE_POLL_MS } from "./useNodeList";
import "../../components/controls.css";
import "./nodes.css";

// The history's charts load with the panel that shows them: the shell's preload list names none of them.
const NodeHistory = lazy(() => import("./NodeHistory"));

const readNode = (id: number) => getNode(id, { exempt: [400, 404] });

export default function NodeView({ params }: ScreenProps) {
  const id = Number(params.id);
  const allowed = hasScope("nodes.view");
  const {
    item: node,
    setItem: setNode,
    missing,
    setMissing,
    kept,
  } = useKeptDetail("nodes", id, allowed && Number.isInteger(id) && id >= 0, readNode);
  // Bumped after a save: the deployment config carries the ports.
  const [revision, setRevision] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();

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
  if (!node && kept === "none") {
    return (
      <NotKeptOffline back="/nodes">
        <Trans>Back to the nodes</Trans>
      </NotKeptOffline>
    );
  }
  const shown = node ?? (kept !== "none" ? kept?.value : undefined);
  if (!shown) return <Spinner />;
  // Offline (a kept copy, or the panel lost while open): nothing live is claimed, nothing is changed.
  const offline = !node || !online.value;

  const remove = async () => {
    if (!node) return;
    const yes = await confirmAsync({
      title: t`Delete node ${shown.name}?`,
      body: t`The panel forgets this node and its secret. A node that still has servers cannot be deleted. The daemon on its host keeps running until you stop it there.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setDeleting(true);
    try {
      await deleteNode(node.id);
      toastSuccess(t`Node ${shown.name} deleted`);
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
              <h1 data-testid="node-title">{shown.name}</h1>
              {shown.isLocal && (
                <span className="tag">
                  <ScreenIcon name="home" size={12} />
                  {t`Local`}
                </span>
              )}
              <ReachableBadge reachable={offline ? undefined : shown.reachable} />
            </div>
            <p className="muted node-head-address">{formatAddress(shown.publicHost, shown.publicPort)}</p>
          </div>
          {!shown.isLocal && hasScope("nodes.delete") && (
            <DeleteButton onClick={remove} busy={deleting} offline={offline} />
          )}
        </div>
      </header>
      {!node && <LastKnownNote at={kept !== "none" ? kept?.at : undefined} />}
      <div className="node-columns">
        <NodeEdit
          key={shown.id}
          node={shown}
          canEdit={hasScope("nodes.edit")}
          offline={offline}
          onSaved={(saved) => {
            setNode(saved);
            setRevision((r) => r + 1);
          }}
        />
        <NodeFeatures id={shown.id} reachable={offline ? undefined : shown.reachable} />
        {/* Only an administrator is answered the target; nothing of it is changed offline. */}
        {node?.backupTarget && !offline && (
          <NodeBackupTarget key={shown.id} nodeId={shown.id} target={node.backupTarget} />
        )}
        {/* The pool is the administrators' (GET /api/nodes/{id}/allocations). */}
        {!offline && hasScope("admin") && <NodeAllocations key={shown.id} nodeId={shown.id} />}
        {!shown.isLocal &&
          hasScope("nodes.deploy") &&
          (offline ? (
            // The deployment carries the node's secret: never kept on the device.
            <Panel title={<Trans>Deployment</Trans>} className="node-deployment">
              <p className="muted" data-testid="deployment-offline">
                {offlineReason()}
              </p>
            </Panel>
          ) : (
            <NodeDeployment id={shown.id} revision={revision} />
          ))}
      </div>
      {!offline && shown.reachable && (
        <Suspense fallback={<Spinner />}>
          <NodeHistory id={shown.id} />
        </Suspense>
      )}
    </div>
  );
}
