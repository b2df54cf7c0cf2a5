import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { Icon } from "../../components/icons";
import { ScreenIcon } from "../../components/screenIcons";
import type { ListType } from "../../state/listType";
import { errorText } from "./errorText";
import { filterTemplates } from "./filter";
import { repoTitle } from "./repoTitle";
import { TemplateEntry } from "./TemplateEntry";
import type { RepoState } from "./useTemplateRepos";

/** A repository: its heading, its templates (filtered), or the error its listing gave. */
export function RepoSection({
  repo,
  query,
  layout,
  onRemove,
  canCreateLocal,
}: {
  repo: RepoState;
  query: string;
  layout: ListType;
  /** Given when the user may remove this repo. */
  onRemove?: () => void;
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
            aria-label={t`Remove repository ${repo.name}`}
          >
            <ScreenIcon name="trash" size={16} />
            <Trans>Remove</Trans>
          </button>
        )}
      </header>

      {repo.error ? (
        <p className="repo-error" role="alert" data-testid="repo-error">
          <Icon name="alert" size={20} />
          <span>{errorText(repo.error)}</span>
        </p>
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
        <ul className={`template-list template-list-${layout}`} data-testid="template-list">
          {shown.map((tpl) => (
            <TemplateEntry key={tpl.name} repo={repo.id} template={tpl} />
          ))}
        </ul>
      )}
    </section>
  );
}
