import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Plural, Trans } from "@lingui/react/macro";
import { useMemo } from "react";
import { onlyAnswer, type QueryAnswer } from "../../../api/query";
import { Spinner } from "../../../components/Spinner";
import { intlLocale } from "../../../i18n/locales";
import { serverStatus } from "../../../state/serverStatus";
import type { SectionProps } from "../sectionProps";
import { PlayerManager } from "./PlayerManager";
import { type QueryResult, useServerQuery } from "./useServerQuery";
import "./query.css";

function useTimeFormat() {
  const locale = intlLocale(i18n.locale);
  return useMemo(() => new Intl.DateTimeFormat(locale, { timeStyle: "medium" }), [locale]);
}

function Answer({ answer }: { answer: QueryAnswer }) {
  const names = answer.players ?? [];
  const online = answer.numPlayers;
  const max = answer.maxPlayers;
  return (
    <>
      <p className="query-count" data-testid="query-count">
        <span className="query-count-number">
          <Trans>
            {online} / {max}
          </Trans>
        </span>
        <span className="muted">
          <Plural value={online} one="player online" other="players online" />
        </span>
      </p>
      {(answer.name || answer.map || answer.version) && (
        <dl className="details query-details">
          {answer.name && (
            <div>
              <dt>
                <Trans>Server name</Trans>
              </dt>
              <dd>{answer.name}</dd>
            </div>
          )}
          {answer.map && (
            <div>
              <dt>
                <Trans>Map</Trans>
              </dt>
              <dd>{answer.map}</dd>
            </div>
          )}
          {answer.version && (
            <div>
              <dt>
                <Trans>Version</Trans>
              </dt>
              <dd>{answer.version}</dd>
            </div>
          )}
        </dl>
      )}
      <h2 className="small-title">
        <Trans>Who is playing</Trans>
      </h2>
      {names.length > 0 ? (
        <ul className="query-players" aria-label={t`Players online`}>
          {names.map((name, i) => (
            // Names may repeat (unnamed or duplicate slots), so the position is part of the key.
            // biome-ignore lint/suspicious/noArrayIndexKey: a list of plain names with no other identity
            <li key={`${i}:${name}`}>{name}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          {online === 0 ? (
            <Trans>No one is playing right now.</Trans>
          ) : (
            <Trans>The game does not tell who is playing.</Trans>
          )}
        </p>
      )}
      {names.length > 0 && names.length < online && (
        <p className="muted small">
          <Trans>The game lists only some of the players by name.</Trans>
        </p>
      )}
    </>
  );
}

function NoAnswer({ result, running }: { result: QueryResult; running: boolean | undefined }) {
  if (result.failed) {
    return (
      <p className="query-note" role="status">
        <Trans>The player count could not be fetched. It is asked again in a moment.</Trans>
      </p>
    );
  }
  if (running === false) {
    return (
      <p className="query-note" role="status">
        <Trans>The server is not running. Start it to see who is playing.</Trans>
      </p>
    );
  }
  return (
    <p className="query-note" role="status">
      <Trans>No answer: the server is not running, is still starting, or did not answer the query.</Trans>
    </p>
  );
}

/**
 * The Players section: the player count (spec §2.3), and for holders of server.players.manage
 * the template's player commands (issue 37).
 */
export default function QuerySection(props: SectionProps) {
  return (
    <div className="players-section">
      <PlayerCount {...props} />
      {props.can("server.players.manage") && (
        <PlayerManager serverId={props.server.id} active={props.active} />
      )}
    </div>
  );
}

/** Who is online, asked with the protocol the server's template names. */
function PlayerCount({ server, active }: SectionProps) {
  const status = serverStatus(server.id).value;
  const query = useServerQuery(server.id, active, status);
  const time = useTimeFormat();
  const running =
    status === "online" || status === "starting" ? true : status === "offline" ? false : undefined;

  if (query.support === "checking") return <Spinner />;
  if (query.support === "no") {
    return (
      <p className="query-note" data-testid="query-unsupported">
        <Trans>This server's template names no player query, so there is no player count to show.</Trans>
      </p>
    );
  }
  if (query.support === "failed") {
    return (
      <div className="query-note">
        <p>
          <Trans>Could not find out whether this server can be asked for its players.</Trans>
        </p>
        <button type="button" className="btn btn-small btn-outline" onClick={query.recheck}>
          <Trans>Try again</Trans>
        </button>
      </div>
    );
  }

  const { result, loading } = query;
  const found = onlyAnswer(result?.view);
  const updated = result && time.format(result.at);
  return (
    <div className="query-section" aria-busy={loading}>
      <div className="query-bar">
        <p className="muted small query-updated" aria-live="polite">
          {updated ? <Trans>Updated {updated}</Trans> : <Trans>Asking the server…</Trans>}
        </p>
        <button
          type="button"
          className="btn btn-small btn-outline"
          onClick={query.refresh}
          disabled={loading}
          data-testid="query-refresh"
        >
          {loading ? <Trans>Refreshing…</Trans> : <Trans>Refresh</Trans>}
        </button>
      </div>
      {!result ? (
        <Spinner />
      ) : found ? (
        <Answer answer={found.answer} />
      ) : (
        <NoAnswer result={result} running={running} />
      )}
    </div>
  );
}
