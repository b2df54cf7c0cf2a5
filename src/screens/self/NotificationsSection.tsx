import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
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
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { config } from "../../state/config";
import { user } from "../../state/session";
import "../servers/entry-list.css";

type PushState = "unsupported" | "denied" | "ready";

/** This browser's push registration, when it has a service worker and Push API. */
async function pushRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  return navigator.serviceWorker.getRegistration();
}

const keyBytes = (base64url: string) => {
  const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/**
 * The user's alerts (issue 24): which events, then where — this device (Web Push; permission is
 * asked only when turned on), webhooks (signing secret shown once) and the account's e-mail.
 */
export function NotificationsSection() {
  const labels: Record<NotificationEvent, string> = {
    "server.crashed": t`A server crashed`,
    "server.installFailed": t`An install failed`,
    "server.unresponsive": t`A server stopped answering and was restarted`,
    "backup.failed": t`A backup failed`,
    "task.failed": t`A task failed`,
    "disk.nearLimit": t`A disk is nearly full`,
    "node.unreachable": t`A node cannot be reached`,
    "account.newDevice": t`A sign-in from a new device`,
  };
  const all = Object.keys(labels) as NotificationEvent[];
  const [channels, setChannels] = useState<ChannelView[]>();
  const [events, setEvents] = useState<NotificationEvent[]>(all);
  const [push, setPush] = useState<PushState>("unsupported");
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
    void pushRegistration().then(async (registration) => {
      if (!registration || !config.value.vapidPublicKey) return;
      setPush(Notification.permission === "denied" ? "denied" : "ready");
      setEndpoint((await registration.pushManager.getSubscription())?.endpoint);
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

  const typeName = (c: ChannelView) =>
    c === thisDevice
      ? t`This device`
      : c.type === "webpush"
        ? t`Web Push`
        : c.type === "webhook"
          ? t`Webhook`
          : t`E-mail`;
  const target = (c: ChannelView) =>
    c.type === "webhook" ? c.url : c.type === "webpush" ? hostOf(c.endpoint) : user.value?.email;

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
          hint={
            push === "unsupported"
              ? t`This browser cannot show notifications.`
              : push === "denied"
                ? t`Notifications are blocked for this panel in the browser's settings.`
                : undefined
          }
        />
        <form
          className="notify-webhook"
          onSubmit={(e) => {
            e.preventDefault();
            void addWebhook();
          }}
        >
          <TextField
            label={t`Webhook URL`}
            type="url"
            inputMode="url"
            dir="ltr"
            value={url}
            onValue={setUrl}
            placeholder="https://"
            hint={t`Discord and Slack get their own format; others get JSON signed with a secret.`}
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
              disabled={busy || !url.trim() || events.length === 0}
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
          <ul className="entry-list" data-testid="channels">
            {channels.map((c) => (
              <li key={c.id} className="notify-channel" data-testid="channel">
                <div className="notify-channel-main">
                  <span className="notify-channel-type">{typeName(c)}</span>
                  <span className="notify-channel-target small" dir="ltr">
                    {target(c)}
                  </span>
                  <span className="muted small">
                    {c.events.map((e) => labels[e as NotificationEvent] ?? e).join(" · ")}
                  </span>
                </div>
                <button
                  type="button"
                  className="icon-btn color-error"
                  disabled={busy}
                  aria-label={t`Remove`}
                  data-testid="remove-channel"
                  onClick={() =>
                    void run(async () => {
                      await deleteChannel(c.id);
                      if (c === thisDevice)
                        await (
                          await (await pushRegistration())?.pushManager.getSubscription()
                        )?.unsubscribe();
                    })
                  }
                >
                  <ScreenIcon name="trash" size={20} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}

function hostOf(url: string | undefined): string {
  try {
    return new URL(url ?? "").host;
  } catch {
    return "";
  }
}
