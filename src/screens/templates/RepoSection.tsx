import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { ItemList } from "../../components/ItemList";
import { ScreenIcon } from "../../components/screenIcons";
import { offlineReason } from "../../offline/NeedsNetwork";
import { online } from "../../offline/network";
import type { ListType } from "../../state/listType";
import { filterTemplates } from "./filter";
import { RepoErrorNotice } from "./RepoErrorNotice";
import { repoTitle } from "./repoTitle";
import { TemplateEntry } from "./TemplateEntry";
import type { RepoState } from "./useTemplateRepos";

/** A repository: its heading, its templates (filtered), or the error its listing gave. */
export function RepoSection({
  repo,
  query,
  layout,
  onRemove,
  onRetry,
  canCreateLocal,
}: {
  repo: RepoState;
  query: string;
  layout: ListType;
  /** Given when the user may remove this repo. */
  onRemove?: () => void;
  /** Fetches a repository whose listing failed again, at once. */
  onRetry?: () => void;
  canCreateLocal: boolean;
}) {
  const all = repo.templates ?? [];
  const shown = filterTemplates(all, query);
  const name = repoTitle(repo);
  const headingId = `repo-${repo.id}`;

  return (
    <section
      className="repo-section"
      aria-labelledby={headingId}
      aria-busy={repo.loading}
      data-testid="repo-section"
      data-repo={repo.id}
    >
      <header className="repo-head">
        <div className="repo-head-main">
          <h2 id={headingId} className="repo-title">
            {repo.isLocal && <ScreenIcon name="home" size={18} />}
            {name}
            {repo.templates && !repo.error && <span className="tag">{all.length}</span>}
          </h2>
          {repo.isBuiltIn && <p className="repo-url muted small">{t`Shipped with the panel`}</p>}
          {!repo.isLocal && !repo.isBuiltIn && (
            <p className="repo-url muted small">
              {repo.url}
              {repo.branch && <span className="repo-branch"> · {repo.branch}</span>}
            </p>
          )}
        </div>
        {onRemove && (
          <button
            type="button"
            className="btn btn-outline btn-small color-error"
            onClick={onRemove}
            disabled={!online.value}
            title={online.value ? undefined : offlineReason()}
            aria-label={t`Remove repository ${repo.name}`}
          >
            <ScreenIcon name="trash" size={16} />
            <Trans>Remove</Trans>
          </button>
        )}
      </header>

      {repo.error ? (
        <RepoErrorNotice error={repo.error} busy={repo.loading} onRetry={onRetry} />
      ) : repo.templates === undefined ? (
        <p className="muted small">
          <Trans>Loading…</Trans>
        </p>
      ) : all.length === 0 ? (
        <p className="muted small" data-testid="repo-empty">
          {repo.isLocal ? (
            canCreateLocal ? (
              <Trans>
                No local templates yet. <Link href="/templates/new">Create one</Link> or copy one from a
                repository.
              </Trans>
            ) : (
              <Trans>No local templates yet.</Trans>
            )
          ) : (
            <Trans>This repository has no templates.</Trans>
          )}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted small">
          <Trans>No template here matches the search.</Trans>
        </p>
      ) : (
        <ItemList layout={layout} dense testId="template-list">
          {shown.map((tpl) => (
            <TemplateEntry key={tpl.name} repo={repo.id} template={tpl} />
          ))}
        </ItemList>
      )}
    </section>
  );
}
