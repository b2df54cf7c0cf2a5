import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { type Server, type ServerAction, serverAction } from "../../api/servers";
import { confirmAsync } from "../../components/confirmStore";
import { ItemList } from "../../components/ItemList";
import { Icon } from "../../components/icons";
import { Spinner } from "../../components/Spinner";
import { type KnownStatus, keepStatuses, useKnownStatuses } from "../../offline/knownStatus";
import { KnownAt, LastKnownNote } from "../../offline/LastKnownNote";
import { offlineReason } from "../../offline/NeedsNetwork";
import { online } from "../../offline/network";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import { liveStats, serverInstalled, serverStatus } from "../../state/serverStatus";
import { ListHead } from "../ListParts";
import { useListHotkeys } from "../useListHotkeys";
import { ServerUsage } from "./ServerUsage";
import { ActionIcon, gameName, ServerTypeIcon, type ShownStatus, StatusBadge } from "./serverIcons";
import { holdsOnServer, serverAddress } from "./serverScopes";
import { useListLive } from "./useListLive";
import { useServerList } from "./useServerList";
import "../../components/controls.css";
import "./servers.css";

const SEARCH_PAUSE_MS = 300;

/**
 * Which of start / stop / kill to offer: start hidden while online, stop and kill while offline.
 * A server never installed (or whose install failed) offers Install, never a Start that would fail.
 */
export function listActions(status: ShownStatus | undefined, installed?: boolean): ServerAction[] {
  switch (status) {
    case "offline":
      return installed === false ? ["install"] : ["start"];
    case "online":
    case "starting":
      return ["stop", "kill"];
    case undefined:
      // the status cannot be read by this user: offer what the scopes allow
      return ["start", "stop", "kill"];
    default:
      // unknown (not answered yet), its node unreachable, installing, or an action on its way
      return [];
  }
}

function actionLabel(action: ServerAction, name: string): string {
  switch (action) {
    case "start":
      return t`Start ${name}`;
    case "stop":
      return t`Stop ${name}`;
    case "install":
      return t`Install ${name}`;
    default:
      return t`Kill ${name}`;
  }
}

function ServerEntry({
  server,
  register,
  scopes,
  known,
  onAction,
  old,
}: {
  old: boolean;
  server: Server;
  /** Offline: its last status delivered, with its time. */
  known: KnownStatus | undefined;
  register: (el: HTMLElement | null) => void;
  scopes: string[] | undefined;
  onAction: (server: Server, action: ServerAction) => Promise<void>;
}) {
  const [pending, setPending] = useState(false);
  const live = serverStatus(server.id).value;
  // An old copy (offline) shows the last status delivered, with its time; its actions wait for the network.
  const status: ShownStatus | undefined = !server.canGetStatus
    ? undefined
    : old
      ? (known?.status ?? "unknown")
      : pending
        ? "loading"
        : live;
  const shownUsage = old ? known?.stats : liveStats(server.id).value;
  const address = serverAddress(server);
  const game = gameName(server.type);
  const installed = serverInstalled(server.id).value;
  // Offline with no status kept: every action the scopes allow, disabled.
  const actions = listActions(old && !known ? undefined : status, installed).filter((a) =>
    holdsOnServer(scopes, `server.${a}`),
  );
  const run = async (action: ServerAction) => {
    setPending(true);
    try {
      await onAction(server, action);
    } finally {
      setPending(false);
    }
  };
  return (
    <li
      ref={register}
      data-id={server.id}
      className={old ? "server-entry is-old" : "server-entry"}
      data-testid="server-entry"
    >
      <Link href={`/servers/view/${server.id}`} className="server-entry-link" data-list-entry="">
        <ServerTypeIcon type={server.type} icon={server.icon} />
        <span className="server-entry-main">
          <span className="server-entry-name">{server.name}</span>
          <span className="server-entry-meta muted">
            {game && (
              <span className="server-game" data-testid="server-game">
                {game}
              </span>
            )}
            {address && <span className="server-address">{address}</span>}
            {server.node.name && (
              <span className="srv-with-icon">
                <Icon name="node" size={14} />
                {server.node.name}
              </span>
            )}
          </span>
          {shownUsage && (status === "online" || status === "starting") && <ServerUsage stats={shownUsage} />}
          {old && known && <KnownAt at={known.at} />}
        </span>
      </Link>
      <div className="server-entry-side">
        {status && <StatusBadge status={status} />}
        {actions.length > 0 && (
          <div className="server-entry-actions">
            {actions.map((a) => (
              <button
                key={a}
                type="button"
                className={`icon-btn action-${a}`}
                aria-label={actionLabel(a, server.name)}
                title={
                  old ? `${actionLabel(a, server.name)}: ${offlineReason()}` : actionLabel(a, server.name)
                }
                disabled={old}
                onClick={() => void run(a)}
              >
                <ActionIcon name={a} size={18} />
              </button>
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export default function ServerList() {
  useListHotkeys(hasScope("server.create") ? { label: msg`New server`, href: "/servers/new" } : undefined);
  const [search, setSearch] = useState("");
  const name = useDebounced(search.trim(), SEARCH_PAUSE_MS);
  const list = useServerList(name);
  const layout = listType.value;
  const old = !list.fresh || !online.value;
  const { register, serverScopes, refresh } = useListLive(list.servers, !old);
  // Out of reach: each server's last status delivered. (While a kept copy waits for the fresh list,
  // statuses are unknown, as before: the list is about to say.)
  const known = useKnownStatuses(!online.value);
  useEffect(keepStatuses, []);

  const onAction = async (server: Server, action: ServerAction) => {
    if (action === "kill") {
      const yes = await confirmAsync({
        title: t`Kill ${server.name}?`,
        body: t`The process ends at once, without saving. Use Stop to shut it down cleanly.`,
        confirm: { text: t`Kill`, color: "error" },
        cancel: { color: "neutral" },
      });
      if (!yes) return;
    }
    try {
      await serverAction(server.id, action);
    } catch {
      // the global handler said why
    }
    await refresh(server.id);
  };

  const servers = list.servers;
  return (
    <section className="panel">
      <ListHead
        title={<Trans>Servers</Trans>}
        create={hasScope("server.create") && { href: "/servers/new", label: <Trans>New server</Trans> }}
      />
      <div className="srv-search">
        <Icon name="search" size={18} />
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          placeholder={t`Filter servers by name`}
          aria-label={t`Filter servers by name`}
          maxLength={100}
          data-testid="server-search"
        />
      </div>
      {servers === undefined ? (
        list.failed ? (
          <p className="muted">
            <Trans>The servers could not be loaded.</Trans>
          </p>
        ) : (
          <Spinner />
        )
      ) : servers.length === 0 ? (
        <p className="muted srv-empty" data-testid="no-servers">
          {name ? <Trans>No server matches “{name}”.</Trans> : <Trans>There are no servers here yet.</Trans>}
        </p>
      ) : (
        <>
          {old && <LastKnownNote at={list.at} />}
          <ItemList layout={layout} busy={!list.fresh && online.value} testId="server-list">
            {servers.map((s) => (
              <ServerEntry
                key={s.id}
                server={s}
                register={register}
                scopes={serverScopes[s.id]}
                known={known?.[s.id]}
                onAction={onAction}
                old={old}
              />
            ))}
          </ItemList>
          <div className="srv-more">
            <span className="muted small">
              <Trans>
                {servers.length} of {list.total}
              </Trans>
            </span>
            {list.fresh && servers.length < list.total && (
              <button
                type="button"
                className="btn color-neutral"
                onClick={list.loadMore}
                disabled={list.loadingMore}
              >
                {list.loadingMore ? <Trans>Loading…</Trans> : <Trans>Load more</Trans>}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
