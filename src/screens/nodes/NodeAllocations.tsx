import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import {
  addNodeAllocations,
  deleteNodeAllocation,
  listNodeAllocations,
  type NodeAllocation,
} from "../../api/allocations";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";

/** What the list shows at first: a pool of 10,000 is read once, shown in pages of this many. */
const shownStep = 100;
const portsPattern = /^\s*\d{1,5}(\s*-\s*\d{1,5})?(\s*,\s*\d{1,5}(\s*-\s*\d{1,5})?)*\s*$/;

/**
 * The node's pool of ports (administrators, issue 36): add a port, a range or a list on an
 * address, see which server holds each, remove a free one.
 */
export function NodeAllocations({ nodeId }: { nodeId: number }) {
  const [entries, setEntries] = useState<NodeAllocation[]>();
  const [ip, setIp] = useState("0.0.0.0");
  const [ports, setPorts] = useState("");
  const [alias, setAlias] = useState("");
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(shownStep);

  const load = useCallback(async () => setEntries(await listNodeAllocations(nodeId)), [nodeId]);
  useEffect(() => {
    void load().catch(() => {});
  }, [load]);

  const valid = portsPattern.test(ports) && ip.trim() !== "";
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    try {
      const added = await addNodeAllocations(nodeId, {
        ip: ip.trim(),
        ports,
        ...(alias.trim() ? { alias: alias.trim() } : {}),
      });
      toastSuccess(t`Ports added: ${added.length}`);
      setPorts("");
    } catch {
      // the global handler said why (a port already there, too many at once)
    } finally {
      setBusy(false);
    }
    await load().catch(() => {});
  };

  const remove = async (entry: NodeAllocation) => {
    setBusy(true);
    try {
      await deleteNodeAllocation(nodeId, entry.id);
      toastSuccess(t`${entry.ip}:${entry.port} removed`);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
    await load().catch(() => {});
  };

  const free = entries?.filter((entry) => entry.serverId === null).length ?? 0;
  const total = entries?.length ?? 0;
  return (
    <Panel title={<Trans>Allocations</Trans>} className="node-allocations">
      <form className="inline-form alloc-add" onSubmit={add} data-testid="allocation-add">
        <TextField label={t`IP address`} value={ip} onValue={setIp} maxLength={64} required />
        <TextField
          label={t`Ports`}
          value={ports}
          onValue={setPorts}
          maxLength={2000}
          hint={t`A port, a range such as 25565-25600, or a list: 25565,25570`}
          invalid={ports !== "" && !portsPattern.test(ports)}
          required
        />
        <TextField label={t`Alias (optional)`} value={alias} onValue={setAlias} maxLength={255} />
        <button type="submit" className="btn" disabled={busy || !valid}>
          <Trans>Add ports</Trans>
        </button>
      </form>
      {!entries ? (
        <Spinner />
      ) : total === 0 ? (
        <p className="muted" data-testid="allocations-empty">
          <Trans>No allocations: servers on this node use their template's ports.</Trans>
        </p>
      ) : (
        <>
          <p className="muted small" data-testid="allocations-count">
            <Trans>
              Allocations: {total}, free: {free}
            </Trans>
          </p>
          <ul className="alloc-list" data-testid="allocations">
            {entries.slice(0, shown).map((entry) => (
              <li key={entry.id} className="alloc-item" data-testid="allocation">
                <span className="alloc-address">
                  {entry.ip}:{entry.port}
                  {entry.alias && <span className="muted small"> · {entry.alias}</span>}
                </span>
                {entry.serverId === null ? (
                  <>
                    <span className="tag">
                      <Trans>Free</Trans>
                    </span>
                    <button
                      type="button"
                      className="btn btn-outline btn-small color-error"
                      disabled={busy}
                      onClick={() => void remove(entry)}
                      aria-label={t`Remove ${entry.ip}:${entry.port}`}
                    >
                      <Trans>Remove</Trans>
                    </button>
                  </>
                ) : (
                  <Link
                    className="alloc-holder small"
                    href={`/servers/${encodeURIComponent(entry.serverId)}`}
                  >
                    <Trans>Held by {entry.serverId}</Trans>
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {shown < total && (
            <button
              type="button"
              className="btn btn-outline btn-small"
              onClick={() => setShown((n) => n + shownStep * 10)}
            >
              <Trans>Show more</Trans>
            </button>
          )}
        </>
      )}
    </Panel>
  );
}
