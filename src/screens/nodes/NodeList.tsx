import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Node } from "../../api/nodes";
import { ItemEntry, ItemList } from "../../components/ItemList";
import { Icon } from "../../components/icons";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { LastKnownNote } from "../../offline/LastKnownNote";
import { online } from "../../offline/network";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import { ListHead } from "../ListParts";
import { useListHotkeys } from "../useListHotkeys";
import { formatAddress } from "./address";
import { ReachableBadge } from "./ReachableBadge";
import { useNodeList } from "./useNodeList";
import "../../components/controls.css";
import "./nodes.css";

function NodeEntry({ node, old }: { node: Node; old: boolean }) {
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
      side={<ReachableBadge reachable={old ? undefined : node.reachable} />}
    />
  );
}

export default function NodeList() {
  useListHotkeys(hasScope("nodes.create") ? { label: msg`New node`, href: "/nodes/new" } : undefined);
  const { nodes, fresh, failed, at } = useNodeList();
  const layout = listType.value;
  // A kept copy (or one read before the panel went out of reach) says its age, not its statuses.
  const old = !fresh || !online.value;
  return (
    <section className="panel">
      <ListHead
        title={<Trans>Nodes</Trans>}
        create={hasScope("nodes.create") && { href: "/nodes/new", label: <Trans>New node</Trans> }}
      />
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
        <>
          {old && <LastKnownNote at={at} />}
          <ItemList layout={layout} busy={!fresh && online.value} testId="node-list">
            {nodes.map((n) => (
              <NodeEntry key={n.id} node={n} old={old} />
            ))}
          </ItemList>
        </>
      )}
    </section>
  );
}
