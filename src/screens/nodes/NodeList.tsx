import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import type { Node } from "../../api/nodes";
import { ItemEntry, ItemList } from "../../components/ItemList";
import { Icon } from "../../components/icons";
import { ListTypeToggle } from "../../components/ListTypeToggle";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import { formatAddress } from "./address";
import { ReachableBadge } from "./ReachableBadge";
import { useNodeList } from "./useNodeList";
import "../../components/controls.css";
import "./nodes.css";

function NodeEntry({ node }: { node: Node }) {
  return (
    <ItemEntry
      href={`/nodes/view/${node.id}`}
      testId="node-entry"
      icon={<Icon name="node" size={22} />}
      name={
        <>
          <span className="node-name">{node.name}</span>
          {node.isLocal && (
            <span className="tag">
              <ScreenIcon name="home" size={12} />
              {t`Local`}
            </span>
          )}
        </>
      }
      detail={formatAddress(node.publicHost, node.publicPort)}
      side={<ReachableBadge reachable={node.reachable} />}
    />
  );
}

export default function NodeList() {
  const { nodes, fresh, failed } = useNodeList();
  const layout = listType.value;
  return (
    <section className="panel">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Nodes</Trans>
        </h1>
        <div className="screen-actions">
          <ListTypeToggle />
          {hasScope("nodes.create") && (
            <Link href="/nodes/new" className="btn">
              <ScreenIcon name="plus" size={18} />
              <Trans>New node</Trans>
            </Link>
          )}
        </div>
      </header>
      {nodes === undefined ? (
        failed ? (
          <p className="muted">
            <Trans>The nodes could not be loaded.</Trans>
          </p>
        ) : (
          <Spinner />
        )
      ) : nodes.length === 0 ? (
        <p className="muted" data-testid="no-nodes">
          <Trans>There are no nodes yet.</Trans>
        </p>
      ) : (
        <ItemList layout={layout} busy={!fresh} testId="node-list">
          {nodes.map((n) => (
            <NodeEntry key={n.id} node={n} />
          ))}
        </ItemList>
      )}
    </section>
  );
}
