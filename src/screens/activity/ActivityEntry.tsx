import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import type { ActivityEntry as Entry } from "../../api/activity";
import { actionLabel } from "./actionLabels";
import { type DetailField, detailFields, type Shown, subjectText } from "./activityDetails";

const Value = ({ shown }: { shown: Shown }) => <bdi title={shown.title}>{shown.text}</bdi>;

/** One field: `label: value`, `label: before → after`, or a list's `label: + came − went`. */
function Field({ field, rtl }: { field: DetailField; rtl: boolean }) {
  return (
    <div className="activity-field" data-testid="activity-field">
      <dt>{field.label}</dt>
      <dd>
        {field.value && field.before && (
          <>
            <del className="activity-before">
              <Value shown={field.before} />
            </del>
            <span className="activity-arrow" aria-hidden="true">
              {rtl ? "←" : "→"}
            </span>
          </>
        )}
        {field.value && <Value shown={field.value} />}
        {field.added?.map((s) => (
          <ins key={`+${s.title ?? s.text}`} className="activity-added" title={s.title}>
            + <bdi>{s.text}</bdi>
          </ins>
        ))}
        {field.removed?.map((s) => (
          <del key={`-${s.title ?? s.text}`} className="activity-removed" title={s.title}>
            − <bdi>{s.text}</bdi>
          </del>
        ))}
      </dd>
    </div>
  );
}

/** One entry of the log: what (in words, the code on hover), who, where, when, and its details. */
export function ActivityEntry({
  entry,
  showServer,
  locale,
}: {
  entry: Entry;
  showServer: boolean;
  locale: string;
}) {
  const kind =
    entry.actorKind === "task"
      ? t`Task`
      : entry.actorKind === "sftp"
        ? t`SFTP`
        : entry.actorKind === "client"
          ? t`OAuth client`
          : entry.actorKind === "panel"
            ? t`Panel`
            : "";
  const fields = detailFields(entry.details, locale);
  const userId = entry.userId;
  const subject = entry.subject && subjectText(entry.subject, entry.details, entry.subjectName);
  const rtl = typeof document !== "undefined" && document.documentElement.dir === "rtl";
  return (
    <li className="activity-entry" data-testid="activity-entry">
      <div className="activity-what">
        <span className="activity-action" title={entry.action} data-action={entry.action}>
          {actionLabel(entry.action)}
        </span>
        {!entry.ok && (
          <span className="tag activity-failed">
            <Trans>Failed</Trans>
          </span>
        )}
        {subject && (
          <bdi className="activity-subject" title={entry.subject}>
            {subject}
          </bdi>
        )}
      </div>
      <div className="activity-who muted">
        {/* The panel's own entries name no one but their tag. */}
        {(entry.actorKind !== "panel" || entry.actor) && (
          <bdi className="activity-actor" title={userId === null ? undefined : t`User ${userId}`}>
            {entry.actor || entry.clientId || "—"}
          </bdi>
        )}
        {kind && <span className="tag">{kind}</span>}
        {showServer &&
          entry.serverId &&
          (entry.serverName ? (
            <Link
              href={`/servers/view/${encodeURIComponent(entry.serverId)}`}
              className="activity-server"
              title={entry.serverId}
              data-testid="activity-server-name"
            >
              {entry.serverName}
            </Link>
          ) : (
            // Deleted since (or an older panel's list): the id is all there is.
            <span className="activity-server" title={t`This server no longer exists`}>
              {entry.serverId}
            </span>
          ))}
        {entry.address && <span className="activity-address">{entry.address}</span>}
        <time dateTime={entry.time}>
          {new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(
            new Date(entry.time),
          )}
        </time>
      </div>
      {fields.length > 0 && (
        <dl className="activity-details">
          {fields.map((f) => (
            <Field key={f.key} field={f} rtl={rtl} />
          ))}
        </dl>
      )}
    </li>
  );
}
