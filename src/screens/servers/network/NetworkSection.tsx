import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import {
  addServerAllocation,
  allocationAddress,
  listServerAllocations,
  makePrimaryAllocation,
  removeServerAllocation,
  type ServerAllocation,
  type ServerAllocations,
} from "../../../api/allocations";
import { CopyField } from "../../../components/CopyField";
import { Spinner } from "../../../components/Spinner";
import type { SectionProps } from "../sectionProps";
import "../../../components/controls.css";
import "./network.css";
import { changeAndReload } from "../changeAndReload";

/**
 * A server's addresses (issue 36): each of its allocations with a copy button, the primary first;
 * holders of server.allocations.edit add a free port of the node within the limit, remove an
 * extra one and choose the primary (the template's port variable follows).
 */
export default function NetworkSection({ server, can, active, onChanged }: SectionProps) {
  const [list, setList] = useState<ServerAllocations>();
  const [busy, setBusy] = useState(false);
  const id = server.id;
  const load = useCallback(async () => setList(await listServerAllocations(id)), [id]);
  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  // A failure (the limit, no free port) is told by the global handler.
  const act = (work: () => Promise<unknown>, done: string) => changeAndReload(work, done, load, setBusy);

  if (!list) return <Spinner />;
  const host = server.node.publicHost;
  const editable = can("server.allocations.edit");
  const extras = list.allocations.filter((a) => !a.primary && !a.variable).length;
  const makePrimary = (entry: ServerAllocation) =>
    act(
      async () => {
        const answer = await makePrimaryAllocation(id, entry.id);
        const primary = answer.allocations.find((a) => a.primary);
        if (primary) onChanged({ ip: primary.ip, port: primary.port });
      },
      t`${allocationAddress(entry, host)} is the primary address`,
    );

  if (!list.pooled && list.allocations.length === 0) {
    return (
      <div className="net-section" data-testid="network">
        {server.port ? (
          <CopyField
            label={t`Address`}
            value={allocationAddress({ ip: server.ip ?? "", port: server.port }, host)}
            testId="network-address"
          />
        ) : null}
        <p className="muted">
          <Trans>This server's node has no pool of ports: the server listens where its settings say.</Trans>
        </p>
      </div>
    );
  }
  return (
    <div className="net-section" data-testid="network">
      <p className="muted small" data-testid="network-count">
        <Trans>
          Extra ports: {extras} of {list.allocationLimit}
        </Trans>
      </p>
      <ul className="net-list">
        {list.allocations.map((entry) => (
          <li key={entry.id} className="net-item" data-testid="network-allocation">
            {(entry.primary || entry.variable) && (
              <div className="net-title">
                {entry.primary ? (
                  <span className="tag">
                    <Trans>Primary</Trans>
                  </span>
                ) : (
                  <span className="tag">{entry.variable}</span>
                )}
              </div>
            )}
            <CopyField
              label={t`Address`}
              labelHidden
              value={allocationAddress(entry, host)}
              testId="network-address"
              copyLabel={t`Copy the address ${allocationAddress(entry, host)}`}
            />
            {editable && !entry.primary && (
              <div className="net-actions">
                <button
                  type="button"
                  className="btn btn-outline btn-small"
                  disabled={busy}
                  onClick={() => void makePrimary(entry)}
                >
                  <Trans>Make primary</Trans>
                </button>
                {!entry.variable && (
                  <button
                    type="button"
                    className="btn btn-outline btn-small color-error"
                    disabled={busy}
                    onClick={() => void act(() => removeServerAllocation(id, entry.id), t`Port removed`)}
                    data-testid="network-remove"
                  >
                    <Trans>Remove</Trans>
                  </button>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
      {editable &&
        (extras < list.allocationLimit ? (
          <button
            type="button"
            className="btn net-add"
            disabled={busy}
            onClick={() => void act(() => addServerAllocation(id), t`Port added`)}
            data-testid="network-add"
          >
            <Trans>Add a port</Trans>
          </button>
        ) : (
          <p className="muted small">
            <Trans>An administrator sets how many extra ports this server may have.</Trans>
          </p>
        ))}
    </div>
  );
}
