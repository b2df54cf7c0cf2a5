import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { isDiscordHook } from "../../../server/contract/discord-hook";
import {
  type ChannelView,
  createChannel,
  deleteChannel,
  listChannels,
  type NotificationEvent,
} from "../../api/notifications";
import { CopyField } from "../../components/CopyField";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import { config } from "../../state/config";
import { ChannelList } from "./ChannelList";
import { type PushSupport, pushRegistration, pushSupport } from "./pushSupport";
import "../servers/entry-list.css";

const keyBytes = (base64url: string) => {
  const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/** Where a webhook goes: Discord and Slack get their own message; any other, signed JSON. */
type HookKind = "discord" | "slack" | "json";

/**
 * The user's alerts (issue 24): which events, then where — this device (Web Push; permission is
 * asked only when turned on), webhooks (signing secret shown once) and the account's e-mail.
 */
export function NotificationsSection() {
  const labels: Record<NotificationEvent, string> = {
    "server.crashed": t`A server crashed`,
    "server.installFailed": t`An install failed`,
    "backup.failed": t`A backup failed`,
    "task.failed": t`A task failed`,
    "disk.nearLimit": t`A disk is nearly full`,
    "node.unreachable": t`A node cannot be reached`,
    "account.newDevice": t`A sign-in from a new device`,
  };
  const all = Object.keys(labels) as NotificationEvent[];
  const [channels, setChannels] = useState<ChannelView[]>();
  const [events, setEvents] = useState<NotificationEvent[]>(all);
  const [push, setPush] = useState<PushSupport>();
  const [kind, setKind] = useState<HookKind>("json");
  const [endpoint, setEndpoint] = useState<string>();
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState<string>();
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    try {
      setChannels(await listChannels());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the section mounts
  useEffect(() => {
    void reload();
    void pushSupport().then(async (support) => {
      setPush(support);
      if (support === "ready" || support === "denied")
        setEndpoint((await (await pushRegistration())?.pushManager.getSubscription())?.endpoint);
    });
  }, []);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // API errors are reported globally; a refused permission shows as blocked.
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const thisDevice = channels?.find((c) => c.type === "webpush" && c.endpoint && c.endpoint === endpoint);

  const turnPush = (on: boolean) =>
    run(async () => {
      const registration = await pushRegistration();
      if (!registration) return;
      if (!on) {
        if (thisDevice) await deleteChannel(thisDevice.id);
        await (await registration.pushManager.getSubscription())?.unsubscribe();
        setEndpoint(undefined);
        return;
      }
      // Asked here, when the user turns it on, never before.
      if ((await Notification.requestPermission()) !== "granted") {
        setPush("denied");
        return;
      }
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(config.value.vapidPublicKey ?? ""),
        }));
      await createChannel({ type: "webpush", events, subscription: subscription.toJSON() });
      setEndpoint(subscription.endpoint);
    });

  const addWebhook = () =>
    run(async () => {
      const made = await createChannel({ type: "webhook", events, url: url.trim() });
      setSecret(made.secret);
      setUrl("");
    });

  const typed = url.trim();
  const urlProblem = !typed
    ? undefined
    : kind === "discord" && !validDiscord(typed)
      ? t`A Discord webhook address looks like https://discord.com/api/webhooks/… (Server settings → Integrations → Webhooks → Copy Webhook URL).`
      : kind === "slack" && !typed.startsWith("https://hooks.slack.com/")
        ? t`A Slack webhook address starts with https://hooks.slack.com/.`
        : undefined;
  const hookHint =
    kind === "discord"
      ? t`Alerts arrive as Discord messages that mention no one.`
      : kind === "slack"
        ? t`Alerts arrive as Slack messages.`
        : t`Each alert is POSTed as JSON, signed with a secret shown once (header X-Outpost-Signature).`;
  const whyNoPush: Record<Exclude<PushSupport, "ready">, string> = {
    insecure: t`Notifications need the panel opened over HTTPS (or as localhost on this computer).`,
    homeScreen: t`On iPhone and iPad, add the panel to the Home Screen (Share → Add to Home Screen) and open it from there.`,
    noPush: t`This browser cannot show notifications: use a current Chrome, Edge, Firefox or Safari, or e-mail or a webhook below.`,
    noKey: t`The panel does not offer notifications on devices right now.`,
    noWorker: t`The panel's offline worker is not installed yet: reload the page once, then try again.`,
    denied: t`Notifications are blocked for this panel: allow them in the browser's site settings (the icon beside the address), then reload.`,
  };

  return (
    <Panel title={<Trans>Notifications</Trans>} className="self-section">
      <div className="self-form" data-testid="notifications">
        <fieldset className="notify-events">
          <legend className="pref-label">
            <Trans>Tell me when</Trans>
          </legend>
          {all.map((event) => (
            <label key={event} className="notify-event">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(e) =>
                  setEvents(
                    e.currentTarget.checked ? [...events, event] : events.filter((other) => other !== event),
                  )
                }
              />
              {labels[event]}
            </label>
          ))}
        </fieldset>
        <Switch
          label={t`Notifications on this device`}
          checked={!!thisDevice}
          disabled={busy || push !== "ready" || (!thisDevice && events.length === 0)}
          onChange={(on) => void turnPush(on)}
          hint={push && push !== "ready" ? whyNoPush[push] : undefined}
        />
        <form
          className="notify-webhook"
          onSubmit={(e) => {
            e.preventDefault();
            void addWebhook();
          }}
        >
          <fieldset className="notify-events" data-testid="hook-kind">
            <legend className="pref-label">
              <Trans>Webhook for</Trans>
            </legend>
            {(
              [
                ["discord", "Discord"],
                ["slack", "Slack"],
                ["json", t`Another service (signed JSON)`],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="notify-event">
                <input
                  type="radio"
                  name="hook-kind"
                  checked={kind === value}
                  onChange={() => setKind(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <TextField
            label={t`Webhook URL`}
            type="url"
            inputMode="url"
            dir="ltr"
            value={url}
            onValue={setUrl}
            placeholder={
              kind === "discord"
                ? "https://discord.com/api/webhooks/…"
                : kind === "slack"
                  ? "https://hooks.slack.com/services/…"
                  : "https://"
            }
            invalid={!!urlProblem}
            hint={urlProblem ?? hookHint}
          />
          <div className="self-actions">
            {!channels?.some((c) => c.type === "email") && (
              <button
                type="button"
                className="btn btn-outline"
                disabled={busy || events.length === 0}
                onClick={() => void run(async () => void (await createChannel({ type: "email", events })))}
                data-testid="add-email"
              >
                <Trans>Add my e-mail address</Trans>
              </button>
            )}
            <button
              type="submit"
              className="btn"
              disabled={busy || !typed || !!urlProblem || events.length === 0}
              data-testid="add-webhook"
            >
              <Trans>Add webhook</Trans>
            </button>
          </div>
        </form>
        {secret && (
          <CopyField label={t`Signing secret (shown only once)`} value={secret} testId="webhook-secret" />
        )}
        {!channels ? (
          <Spinner />
        ) : channels.length === 0 ? (
          <p className="muted" data-testid="no-channels">
            <Trans>No notifications are set up.</Trans>
          </p>
        ) : (
          <ChannelList channels={channels} labels={labels} thisDevice={thisDevice} busy={busy} run={run} />
        )}
      </div>
    </Panel>
  );
}

function validDiscord(url: string): boolean {
  try {
    return isDiscordHook(url);
  } catch {
    return false;
  }
}
