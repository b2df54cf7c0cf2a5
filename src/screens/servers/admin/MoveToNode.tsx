import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { getTransferTargets, type Server, type TransferTarget, transferServer } from "../../../api/servers";
import { Spinner } from "../../../components/Spinner";
import { toastSuccess } from "../../../components/toastStore";
import { intlLocale } from "../../../i18n/locales";
import type { ServerLive } from "../../../state/serverLive";
import { formatBytes, formatPercent } from "../format";

/** Moves the stopped server, its files and backups, to another node (administrators). */
export function MoveToNode({
  server,
  live,
  onMoved,
}: {
  server: Server;
  live?: ServerLive;
  onMoved: (node: TransferTarget) => void;
}) {
  const [targets, setTargets] = useState<TransferTarget[]>();
  const [chosen, setChosen] = useState<number>();
  const [moving, setMoving] = useState(false);
  const locale = intlLocale(i18n.locale);

  useEffect(() => {
    let current = true;
    getTransferTargets(server.id)
      .then(({ nodes }) => {
        if (!current) return;
        setTargets(nodes);
        setChosen(nodes.find((n) => n.reachable)?.id);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [server.id]);

  if (!targets) return <Spinner />;
  const target = targets.find((n) => n.id === chosen);
  const progress = moving ? live?.transfer.value : undefined;

  const move = async () => {
    if (!target) return;
    setMoving(true);
    try {
      await transferServer(server.id, target.id);
      const name = target.name;
      toastSuccess(t`Moved to ${name}`);
      onMoved(target);
    } catch {
      // the global handler said why
    } finally {
      setMoving(false);
    }
  };

  return (
    <section className="settings-block" data-testid="move-to-node">
      <h2 className="small-title">
        <Trans>Move to node</Trans>
      </h2>
      <p className="muted small">
        <Trans>Moves the stopped server with its files, backups and tasks to another node.</Trans>
      </p>
      <div className="move-row">
        <div className="field">
          <div className="field-box">
            <select
              value={chosen ?? ""}
              onChange={(e) => setChosen(Number(e.currentTarget.value))}
              disabled={moving || targets.length === 0}
              aria-label={t`Node`}
              data-testid="move-target"
            >
              {targets.map((node) => {
                const free = node.free === undefined ? "" : formatBytes(node.free, locale);
                return (
                  <option key={node.id} value={node.id} disabled={!node.reachable}>
                    {`${node.name} (${free ? t`${free} free` : t`Unreachable`})`}
                  </option>
                );
              })}
            </select>
          </div>
        </div>
        <button
          type="button"
          className="btn"
          disabled={!target?.reachable || moving || target.portsRefused !== undefined}
          onClick={() => void move()}
          data-testid="move-server"
        >
          <Trans>Move to node</Trans>
        </button>
      </div>
      {/* Where its ports go on a node with a pool (issue 36), before the move is confirmed. */}
      {target?.ports && target.ports.length > 0 && (
        <p className="small" data-testid="move-ports">
          <Trans>
            Ports there:{" "}
            {target.ports.map((p) => (p.from === p.to ? `${p.to}` : `${p.from} → ${p.to}`)).join(", ")}
          </Trans>
        </p>
      )}
      {target?.portsRefused && (
        <p className="small color-error" data-testid="move-ports">
          <Trans>Its ports do not fit in that node's pool: the move would be refused.</Trans>
        </p>
      )}
      {moving && (
        <div className="move-progress" role="status" data-testid="move-progress">
          <progress
            max={Math.max(progress?.total ?? 0, 1)}
            value={Math.min(progress?.received ?? 0, progress?.total ?? 0)}
            aria-label={t`Move to node`}
          />
          <span className="small">
            {progress?.total ? formatPercent(progress.received, progress.total, locale) : <Spinner />}
          </span>
        </div>
      )}
    </section>
  );
}
