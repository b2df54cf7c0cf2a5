import { i18n } from "@lingui/core";
import { Trans } from "@lingui/react/macro";
import type { ApiError } from "../../api/errors";
import { Icon } from "../../components/icons";
import { errorText } from "./errorText";
import "./repo-error.css";

/**
 * Why a repository's templates could not be listed, when the panel last tried, and Retry: the
 * Templates page and the server wizard show the same calm notice. A source's own words (git's
 * message) are quoted, not passed off as ours.
 */
export function RepoErrorNotice({
  error,
  busy,
  onRetry,
}: {
  error: ApiError;
  busy?: boolean;
  onRetry?: () => void;
}) {
  const tried = triedAt(error);
  const meta = error.metadata ?? {};
  const repo = meta.repo;
  const reason = meta.reason;
  return (
    <div className="repo-error" role="status" data-testid="repo-error">
      <Icon name="alert" size={20} />
      <div>
        <span>
          {error.code === "ErrRepoUnavailable" && typeof repo === "string" && typeof reason === "string" ? (
            <Trans>
              Repository {repo} could not be read: <q dir="auto">{reason}</q>
            </Trans>
          ) : (
            errorText(error)
          )}
        </span>
        {tried && (
          <span className="muted small repo-tried">
            <Trans>Last tried {triedAt(error)}.</Trans>
          </span>
        )}
      </div>
      {onRetry && (
        <button
          type="button"
          className="btn btn-outline btn-small"
          onClick={onRetry}
          disabled={busy}
          data-testid="repo-retry"
        >
          <Trans>Retry</Trans>
        </button>
      )}
    </div>
  );
}

/** When the panel last tried to fetch a repository that failed, as a local time. */
function triedAt(error: ApiError): string | undefined {
  const at = error.metadata?.triedAt;
  if (typeof at !== "string" || Number.isNaN(Date.parse(at))) return undefined;
  // In the page's language, not the browser's ("Zuletzt versucht 03:38 AM" on a German page).
  return i18n.date(new Date(at), { timeStyle: "short" });
}
