import { t } from "@lingui/core/macro";
import { useState } from "react";
import {
  type ChannelView,
  deleteChannel,
  type NotificationEvent,
  testChannel,
} from "../../api/notifications";
import { ScreenIcon } from "../../components/screenIcons";
import { user } from "../../state/session";
import { pushRegistration } from "./pushSupport";

type Outcome = Awaited<ReturnType<typeof testChannel>>["outcome"];

/** What a test alert came to, in words that say what to do next. */
function outcomeText(outcome: Outcome): string {
  switch (outcome) {
    case "sent":
      return t`Test sent. If it does not arrive, check the address and the spam folder.`;
    case "retry":
      return t`Not delivered: the other end did not answer or was busy. Real alerts are tried again for a while.`;
    case "failed":
      return t`Refused by the other end: check the address.`;
    case "gone":
      return t`This device's subscription has ended, so it was removed. Turn notifications on again.`;
  }
}

/** The user's channels, each with a test button and a remove button. */
export function ChannelList({
  channels,
  labels,
  thisDevice,
  busy,
  run,
}: {
  channels: ChannelView[];
  labels: Record<NotificationEvent, string>;
  thisDevice: ChannelView | undefined;
  busy: boolean;
  run: (work: () => Promise<void>) => Promise<void>;
}) {
  const [tested, setTested] = useState<Record<number, Outcome>>({});
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

  const ended = Object.entries(tested).some(
    ([id, outcome]) => outcome === "gone" && !channels.some((c) => c.id === Number(id)),
  );
  return (
    <>
      {ended && (
        <p className="small notify-tested" role="status" data-testid="channel-tested">
          {outcomeText("gone")}
        </p>
      )}
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
              {tested[c.id] && (
                <span
                  className={tested[c.id] === "sent" ? "small notify-tested sent" : "small notify-tested"}
                  role="status"
                  data-testid="channel-tested"
                >
                  {outcomeText(tested[c.id])}
                </span>
              )}
            </div>
            <button
              type="button"
              className="btn btn-outline btn-small"
              disabled={busy}
              data-testid="test-channel"
              onClick={() =>
                void run(async () => {
                  const { outcome } = await testChannel(c.id);
                  setTested((all) => ({ ...all, [c.id]: outcome }));
                })
              }
            >
              {t`Send test`}
            </button>
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
                    await (await (await pushRegistration())?.pushManager.getSubscription())?.unsubscribe();
                })
              }
            >
              <ScreenIcon name="trash" size={20} />
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

function hostOf(url: string | undefined): string {
  try {
    return new URL(url ?? "").host;
  } catch {
    return "";
  }
}
