import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMemo, useRef, useState } from "react";
import { type Server, type ServerAction, serverAction } from "../../../api/servers";
import { type ContextHotkey, useContextHotkeys } from "../../../app/hotkeyState";
import { confirmAsync } from "../../../components/confirmStore";
import type { KnownStatus } from "../../../offline/knownStatus";
import { KnownAt } from "../../../offline/LastKnownNote";
import { offlineReason } from "../../../offline/NeedsNetwork";
import { online } from "../../../offline/network";
import type { ServerLive } from "../../../state/serverLive";
import { ActionIcon, type ActionIconName, type ShownStatus, StatusBadge } from "../serverIcons";
import type { ServerCan } from "../serverScopes";

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

// The server view's lifecycle hotkeys (spec §2.2) are Shift+letter: plain letters are the second
// keys of the g chords. The sections' keys come from the sections table (serverSections.ts).
const ACTION_KEYS = {
  start: { keys: "Shift+S", label: msg`Start` },
  stop: { keys: "Shift+T", label: msg`Stop` },
  kill: { keys: "Shift+K", label: msg`Kill` },
} as const;
const NO_HOTKEYS: ContextHotkey[] = [];

/** The header's status and lifecycle buttons (each by its scope), with their Shift+letter hotkeys. */
export function Lifecycle({
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
