import { i18n } from "@lingui/core";
import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { isApiError } from "../../api/errors";
import { getServer, type Server, type ServerAction, serverAction } from "../../api/servers";
import { type ContextHotkey, useContextHotkeys } from "../../app/hotkeyState";
import type { ScreenProps } from "../../app/routes";
import { confirmAsync } from "../../components/confirmStore";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { intlLocale } from "../../i18n/locales";
import { type KnownStatus, keepStatuses, useKnownStatuses } from "../../offline/knownStatus";
import { KnownAt } from "../../offline/LastKnownNote";
import { type Known, type KnownServerPage, lastKnownServerPage } from "../../offline/lastKnown";
import { offlineReason } from "../../offline/NeedsNetwork";
import { NotKeptOffline } from "../../offline/NotKeptOffline";
import { backOnline, online } from "../../offline/network";
import { liveChannel } from "../../state/liveStatus";
import { ServerLive } from "../../state/serverLive";
import { liveStats } from "../../state/serverStatus";
import { AdminSection } from "./AdminSection";
import { ServerConsole } from "./console/ServerConsole";
import { KeptServerPage } from "./KeptServerPage";
import { BackToServers, ServerHeadId } from "./ServerHeadId";
import { SettingsSection } from "./SettingsSection";
import { ActionIcon, type ActionIconName, type ShownStatus, StatusBadge } from "./serverIcons";
import { type ServerCan, serverCan } from "./serverScopes";
import { useKeepServerPage } from "./useKeepServerPage";
import "../../components/controls.css";
import "./servers.css";

// Sections other than the console load with their first opening: the server view's chunk stays small.
const UsersSection = lazy(() => import("./users/UsersSection"));
const SftpSection = lazy(() => import("./sftp/SftpSection"));
const FilesSection = lazy(() => import("./files/FilesSection"));
const BackupsSection = lazy(() => import("./backups/BackupsSection"));
const TasksSection = lazy(() => import("./tasks/TasksSection"));
const ClientsSection = lazy(() => import("./clients/ClientsSection"));
const QuerySection = lazy(() => import("./query/QuerySection"));
const StatsSection = lazy(() => import("./stats/StatsSection"));
const ActivitySection = lazy(() => import("./ActivitySection"));

const MIB = 1024 * 1024;

function useNumber(digits: number) {
  const locale = intlLocale(i18n.locale);
  return useMemo(
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    [locale, digits],
  );
}

/** Which lifecycle buttons to show for a status (start hidden while online; stop/kill while offline). */
export function viewActions(status: ShownStatus | undefined): ServerAction[] {
  switch (status) {
    case "offline":
      return ["start", "install"];
    case "online":
    case "starting":
      return ["stop", "kill"];
    case undefined:
      return ["start", "stop", "kill", "install"];
    default:
      return [];
  }
}

function actionText(action: ServerAction): string {
  switch (action) {
    case "start":
      return t`Start`;
    case "stop":
      return t`Stop`;
    case "kill":
      return t`Kill`;
    case "install":
      return t`Install`;
    default:
      return t`Reload`;
  }
}

const actionColor: Partial<Record<ServerAction, string>> = {
  start: "color-success",
  stop: "btn-outline",
  kill: "btn-outline color-error",
  install: "btn-outline",
};

// The server view's hotkeys (spec §2.2): lifecycle on Shift+letter (plain letters are the second
// keys of the g chords), sections on their number, the command line on i.
const ACTION_KEYS = {
  start: { keys: "Shift+S", label: msg`Start` },
  stop: { keys: "Shift+T", label: msg`Stop` },
  kill: { keys: "Shift+K", label: msg`Kill` },
} as const;
const NO_HOTKEYS: ContextHotkey[] = [];

/** Number keys open the sections in order; i puts the cursor in the console's command line. */
function ViewHotkeys({ sections, choose }: { sections: readonly Section[]; choose: (id: string) => void }) {
  const chooseNow = useRef(choose);
  chooseNow.current = choose;
  const ids = sections.map((s) => `${s.id}:${s.label}`).join(" ");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ids` stands for `sections`
  const hotkeys = useMemo<ContextHotkey[]>(
    () => [
      ...sections.slice(0, 9).map((s, i) => ({
        keys: String(i + 1),
        // Already translated: shown as it is.
        label: { id: `server.section.${s.id}`, message: s.label },
        run: (e: KeyboardEvent) => {
          e.preventDefault();
          chooseNow.current(s.id);
        },
      })),
      {
        keys: "i",
        label: msg`Type a command`,
        run: (e: KeyboardEvent) => {
          const input = () => document.querySelector<HTMLInputElement>('[data-testid="console-input"]');
          if (!input()) return;
          e.preventDefault();
          chooseNow.current("console");
          // once the console section is shown (a hidden field takes no focus)
          requestAnimationFrame(() => input()?.focus());
        },
      },
    ],
    [ids],
  );
  useContextHotkeys(hotkeys);
  return null;
}

function Lifecycle({
  server,
  live,
  can,
  known,
}: {
  server: Server;
  live: ServerLive;
  can: ServerCan;
  /** Offline: the last status delivered, with its time. */
  known: KnownStatus | undefined;
}) {
  const [busy, setBusy] = useState<ServerAction>();
  const readable = can("server.status");
  const reachable = online.value;
  // Offline the live status may be stale: the last one delivered is shown with its time (as the
  // kept page does), and the actions wait for the network.
  const status: ShownStatus | undefined = !reachable
    ? (readable && known?.status) || "unknown"
    : busy
      ? "loading"
      : readable
        ? live.status.value
        : undefined;
  // Never installed (the node says so): Start would only fail, Install is the way forward.
  const notInstalled = status === "offline" && live.installed.value === false;
  const failure = notInstalled ? live.installFailure.value : undefined;
  const actions = viewActions(reachable ? status : undefined).filter(
    (a) => can(`server.${a}`) && !(notInstalled && a === "start"),
  );

  // Restart: a clean stop (waited for), then start; offered while the server runs.
  const canRestart =
    (status === "online" || status === "starting") && can("server.stop") && can("server.start");
  const restart = async () => {
    setBusy("stop");
    try {
      await serverAction(server.id, "stop", { query: { wait: "" } });
      await serverAction(server.id, "start");
    } catch {
      // the global handler said why
    } finally {
      setBusy(undefined);
    }
    await live.refresh();
  };

  const run = async (action: ServerAction) => {
    if (action === "kill" || (action === "install" && !notInstalled)) {
      const yes = await confirmAsync(
        action === "kill"
          ? {
              title: t`Kill ${server.name}?`,
              body: t`The process ends at once, without saving. Use Stop to shut it down cleanly.`,
              confirm: { text: t`Kill`, color: "error" },
              cancel: { color: "neutral" },
            }
          : {
              title: t`Install ${server.name}?`,
              body: t`The template's install steps run again in the server's folder and may replace files there.`,
              confirm: { text: t`Install` },
              cancel: { color: "neutral" },
            },
      );
      if (!yes) return;
    }
    setBusy(action);
    try {
      await serverAction(server.id, action);
    } catch {
      // the global handler said why
    } finally {
      setBusy(undefined);
    }
    await live.refresh();
  };

  const handlers = useRef({ run, restart });
  handlers.current = { run, restart };
  const keyed = actions.filter((a): a is keyof typeof ACTION_KEYS => a in ACTION_KEYS);
  const offered = `${keyed.join(" ")}${reachable && canRestart ? " restart" : ""}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `offered` stands for `keyed` and `canRestart`
  const hotkeys = useMemo<ContextHotkey[]>(
    () => [
      ...keyed.map((a) => ({
        keys: ACTION_KEYS[a].keys,
        label: ACTION_KEYS[a].label,
        run: (e: KeyboardEvent) => {
          e.preventDefault();
          void handlers.current.run(a);
        },
      })),
      ...(offered.endsWith("restart")
        ? [
            {
              keys: "Shift+R",
              label: msg`Restart`,
              run: (e: KeyboardEvent) => {
                e.preventDefault();
                void handlers.current.restart();
              },
            },
          ]
        : []),
    ],
    [offered],
  );
  useContextHotkeys(reachable ? hotkeys : NO_HOTKEYS);

  return (
    <div className={reachable ? "lifecycle" : "lifecycle is-old"}>
      {notInstalled && !failure && (
        <p className="not-installed" role="status" data-testid="not-installed">
          <Trans>Not installed yet: install it before its first start.</Trans>
        </p>
      )}
      {notInstalled && failure && (
        <p className="not-installed" role="status" data-testid="install-failed">
          {/* The node's own words, quoted: they are not translated. */}
          <Trans>
            Install failed: <q dir="auto">{failure}</q>
          </Trans>
        </p>
      )}
      {status &&
        (reachable ? (
          <StatusBadge status={status} />
        ) : (
          <span className="known-status">
            <StatusBadge status={status} />
            {readable && known && <KnownAt at={known.at} />}
          </span>
        ))}
      <div className="lifecycle-buttons" data-testid="server-actions">
        {actions.map((a) => (
          <button
            key={a}
            type="button"
            className={`btn ${notInstalled && a === "install" ? "" : (actionColor[a] ?? "")}`}
            onClick={() => void run(a)}
            disabled={!reachable}
            title={reachable ? undefined : offlineReason()}
            data-testid={`action-${a}`}
          >
            <ActionIcon name={a as ActionIconName} size={18} />
            {actionText(a)}
          </button>
        ))}
      </div>
    </div>
  );
}

function Stats({ live, known }: { live: ServerLive; known: KnownStatus | undefined }) {
  const percent = useNumber(1);
  // Offline: the usage kept with the last status (none once it stopped), not figures of unknown age.
  const stats = online.value ? (liveStats(live.id).value ?? live.stats.value) : known?.stats;
  return (
    <dl className="server-stats" data-testid="server-stats">
      <div>
        <dt>
          <Trans>CPU</Trans>
        </dt>
        <dd>{stats ? `${percent.format(stats.cpu)} %` : "–"}</dd>
      </div>
      <div>
        <dt>
          <Trans>Memory</Trans>
        </dt>
        <dd>{stats ? `${percent.format(stats.memory / MIB)} MiB` : "–"}</dd>
      </div>
    </dl>
  );
}

interface Section {
  id: string;
  label: string;
  render: (active: boolean) => ReactNode;
}

function currentHash(): string {
  return typeof location === "undefined" ? "" : decodeURIComponent(location.hash.replace(/^#/, ""));
}

export default function ServerView({ params }: ScreenProps) {
  const id = params.id ?? "";
  const [server, setServer] = useState<Server>();
  const [scopes, setScopes] = useState<string[]>();
  const [missing, setMissing] = useState(false);
  const [live, setLive] = useState<ServerLive>();
  /** What the page last showed, when the panel cannot be reached (issue 11). */
  const [kept, setKept] = useState<Known<KnownServerPage> | "none">();
  // Showing the kept page: read again once the panel is back in reach.
  const again = kept ? backOnline.value : 0;
  const [tab, setTab] = useState(currentHash);
  // Sections mount when first shown and then stay (hidden), keeping their state; the console
  // mounts at once so it collects output from the start.
  const opened = useRef(new Set(["console"]));

  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger
  useEffect(() => {
    let alive = true;
    setServer(undefined);
    setMissing(false);
    getServer(id, { exempt: [400, 403, 404] })
      .then((answer) => {
        if (!alive) return;
        setKept(undefined);
        setServer(answer.server);
        setScopes(answer.permissions?.scopes ?? []);
      })
      .catch((err) => {
        if (!alive || !isApiError(err)) return;
        if ([400, 403, 404].includes(err.status ?? 0)) setMissing(true);
        else if (err.status === undefined) {
          // No answer (offline): what this page last showed, if it was seen here before.
          void lastKnownServerPage(id).then((page) => alive && setKept(page ?? "none"));
        }
      });
    return () => {
      alive = false;
    };
  }, [id, again]);

  const can = useMemo(() => serverCan(scopes), [scopes]);
  const known = useKnownStatuses(!online.value)?.[id];
  const channels = scopes && {
    console: can("server.console"),
    status: can("server.status"),
    stats: can("server.stats"),
  };
  const channelKey = channels ? `${channels.console}${channels.status}${channels.stats}` : "";

  // One live connection while the view is open; closed deliberately on leaving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: channelKey stands for `channels`
  useEffect(() => {
    if (!channels || !server) return;
    const l = new ServerLive(id, { channels });
    setLive(l);
    return () => {
      l.close();
      setLive(undefined);
    };
  }, [id, channelKey, !!server]);
  // The header's status and the figures come over the page's live socket too (shared with the list).
  const watchLive = !!(channels?.status || channels?.stats);
  useEffect(() => (watchLive ? liveChannel().watch([id]) : undefined), [id, watchLive]);
  // Subscribes to the console before start() below, so it sees the backlog too.
  useKeepServerPage(server, scopes, live, !!channels?.console);
  useEffect(keepStatuses, []);
  // Started after the console (a child) subscribed, so the backlog reaches it.
  useEffect(() => {
    live?.start();
  }, [live]);

  useEffect(() => {
    const onHash = () => setTab(currentHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);

  // On a narrow screen the tab strip scrolls sideways: keep the open section's tab in sight
  // (a link to #files would otherwise open a section whose tab is off to the side).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the tab or the view's readiness changes
  useEffect(() => {
    // Sideways only: scrollIntoView would also move the page, and phones fire resize as
    // their address bar comes and goes.
    const reveal = () => {
      const shown = document.querySelector<HTMLElement>('.server-tab[aria-selected="true"]');
      const strip = shown?.parentElement;
      if (!shown || !strip) return;
      const tabBox = shown.getBoundingClientRect();
      const stripBox = strip.getBoundingClientRect();
      if (tabBox.left < stripBox.left) strip.scrollLeft -= stripBox.left - tabBox.left + 16;
      else if (tabBox.right > stripBox.right) strip.scrollLeft += tabBox.right - stripBox.right + 16;
    };
    reveal();
    window.addEventListener("resize", reveal);
    return () => window.removeEventListener("resize", reveal);
  }, [tab, !!live]);

  if (missing) {
    return (
      <Panel title={<Trans>Server not found</Trans>}>
        <p>
          <Trans>There is no server with this id, or your account may not see it.</Trans>
        </p>
        <Link href="/servers">
          <Trans>Back to the servers</Trans>
        </Link>
      </Panel>
    );
  }
  if (!server && kept) {
    if (kept !== "none") return <KeptServerPage kept={kept} />;
    return (
      <NotKeptOffline back="/servers">
        <Trans>Back to the servers</Trans>
      </NotKeptOffline>
    );
  }
  if (!server || !scopes || !live) return <Spinner />;

  // The sections of spec §2.3, in order.
  const candidates: (Section | false)[] = [
    can("server.console") && {
      id: "console",
      label: t`Console`,
      render: (active: boolean) => (
        <ServerConsole live={live} canSend={can("server.console.send")} active={active} />
      ),
    },
    (can("server.data.view") || can("server.flags.view") || can("server.name.edit")) && {
      id: "settings",
      label: t`Settings`,
      render: () => (
        <SettingsSection server={server} can={can} onRenamed={(name) => setServer({ ...server, name })} />
      ),
    },
    (can("server.definition.view") || can("server.delete")) && {
      id: "admin",
      label: t`Admin`,
      render: () => (
        <AdminSection
          server={server}
          can={can}
          live={live}
          onChanged={(s) => setServer({ ...server, ...s })}
        />
      ),
    },
    can("server.users.view") && {
      id: "users",
      label: t`Users`,
      render: (active: boolean) => <UsersSection server={server} can={can} active={active} />,
    },
    // SFTP signs in only with files.view too (server/panel/sftp-auth.ts).
    can("server.sftp") &&
      can("server.files.view") && {
        id: "sftp",
        label: t`SFTP`,
        render: (active: boolean) => <SftpSection server={server} can={can} active={active} />,
      },
    can("server.files.view") && {
      id: "files",
      label: t`Files`,
      render: (active: boolean) => <FilesSection server={server} can={can} active={active} />,
    },
    can("server.backup.view") && {
      id: "backups",
      label: t`Backups`,
      render: (active: boolean) => <BackupsSection server={server} can={can} active={active} />,
    },
    can("server.tasks.view") && {
      id: "tasks",
      label: t`Tasks`,
      render: (active: boolean) => <TasksSection server={server} can={can} active={active} />,
    },
    can("server.clients.view") && {
      id: "clients",
      label: t`OAuth clients`,
      render: (active: boolean) => <ClientsSection server={server} can={can} active={active} />,
    },
    can("server.stats") && {
      id: "query",
      label: t`Players`,
      render: (active: boolean) => <QuerySection server={server} can={can} active={active} />,
    },
    can("server.stats") && {
      id: "stats",
      label: t`Statistics`,
      render: (active: boolean) => <StatsSection server={server} can={can} active={active} />,
    },
    can("server.activity.view") && {
      id: "activity",
      label: t`Activity`,
      render: (active: boolean) => <ActivitySection server={server} can={can} active={active} />,
    },
  ];
  const sections = candidates.filter((s): s is Section => !!s);

  const active = sections.find((s) => s.id === tab) ?? sections[0];
  const choose = (sectionId: string) => {
    setTab(sectionId);
    history.replaceState(history.state, "", `#${sectionId}`);
  };
  if (active) opened.current.add(active.id);

  return (
    <div className="server-view">
      <BackToServers />
      <header className="server-head panel">
        <ServerHeadId server={server} />
        <Lifecycle server={server} live={live} can={can} known={known} />
        {can("server.stats") && <Stats live={live} known={known} />}
      </header>
      {sections.length === 0 ? (
        <Panel>
          <p className="muted">
            <Trans>Your account may see this server but none of its sections.</Trans>
          </p>
        </Panel>
      ) : (
        <>
          <ViewHotkeys sections={sections} choose={choose} />
          <div className="server-tabs" role="tablist" aria-label={t`Server sections`}>
            {sections.map((s) => (
              <button
                key={s.id}
                type="button"
                role="tab"
                id={`tab-${s.id}`}
                aria-selected={s.id === active?.id}
                aria-controls={`section-${s.id}`}
                tabIndex={s.id === active?.id ? 0 : -1}
                className="server-tab"
                onClick={() => choose(s.id)}
                onKeyDown={(e) => {
                  if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
                  const i = sections.indexOf(s) + (e.key === "ArrowRight" ? 1 : -1);
                  const next = sections[(i + sections.length) % sections.length];
                  choose(next.id);
                  document.getElementById(`tab-${next.id}`)?.focus();
                }}
              >
                {s.label}
              </button>
            ))}
          </div>
          {sections.map((s) =>
            opened.current.has(s.id) ? (
              <div
                key={s.id}
                id={`section-${s.id}`}
                role="tabpanel"
                aria-labelledby={`tab-${s.id}`}
                hidden={s.id !== active?.id}
                className="panel server-section"
              >
                <Suspense fallback={<Spinner />}>{s.render(s.id === active?.id)}</Suspense>
              </div>
            ) : null,
          )}
        </>
      )}
    </div>
  );
}
