import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { isApiError } from "../../../api/errors";
import { listAllTemplates, listTemplates, type RepoListing } from "../../../api/templates";
import { reportSessionEnd } from "../../../app/background";
import { useLoad } from "../../../app/useLoad";
import { Icon } from "../../../components/icons";
import { Spinner } from "../../../components/Spinner";
import { hasScope } from "../../../state/scopes";
import { RepoErrorNotice } from "../../templates/RepoErrorNotice";
import { repoTitle } from "../../templates/repoTitle";
import { ActionIcon, ServerTypeIcon } from "../serverIcons";

/** The wizard's first step: every repository's templates, filtered as you type; one is picked. */
export function TemplateStep({
  picked,
  onPick,
}: {
  picked: { repo: number; name: string } | undefined;
  onPick: (repo: number, name: string) => void;
}) {
  const allowed = hasScope("templates.view");
  const listing = useLoad(
    allowed &&
      (() =>
        listAllTemplates().catch((err) => {
          reportSessionEnd(err);
          throw err;
        })),
    [allowed],
  );
  const { data: repos, setData: setRepos } = listing;
  const failed = listing.error !== undefined;
  const [retrying, setRetrying] = useState<ReadonlySet<number>>(new Set());
  const [filter, setFilter] = useState("");

  if (!allowed) {
    return (
      <p className="srv-note">
        <Trans>Your account may not list templates, so it cannot create servers from them.</Trans>
      </p>
    );
  }
  if (failed) {
    return (
      <p className="muted">
        <Trans>The templates could not be loaded.</Trans>
      </p>
    );
  }
  if (!repos) return <Spinner />;
  // A repository that could not be read is fetched again at once (?retry), as on the Templates page.
  const retry = (id: number) => {
    setRetrying((r) => new Set(r).add(id));
    const done = (change: Partial<RepoListing>) => {
      setRepos((all) => all?.map((r) => (r.id === id ? { ...r, ...change } : r)));
      setRetrying((r) => new Set([...r].filter((x) => x !== id)));
    };
    listTemplates(id, { exempt: true, query: { retry: true } }).then(
      (templates) => done({ templates: Array.isArray(templates) ? templates : [], error: undefined }),
      (err) => {
        reportSessionEnd(err);
        if (isApiError(err)) done({ error: err });
        else done({});
      },
    );
  };
  const needle = filter.trim().toLowerCase();
  const matches = (tpl: RepoListing["templates"][number]) =>
    !needle || [tpl.name, tpl.display, tpl.type].some((s) => s?.toLowerCase().includes(needle));
  const total = repos.reduce((n, r) => n + r.templates.length, 0);
  return (
    <div className="tpl-step">
      <div className="srv-search">
        <Icon name="search" size={18} />
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          placeholder={t`Filter templates`}
          aria-label={t`Filter templates`}
          data-testid="template-search"
        />
      </div>
      {total === 0 && !repos.some((r) => r.error) && (
        <p className="muted">
          <Trans>There are no templates yet.</Trans>
        </p>
      )}
      {repos.map((repo) => {
        const shown = repo.templates.filter(matches);
        if (!repo.error && shown.length === 0 && (needle || repo.templates.length === 0)) return null;
        return (
          <section key={repo.id} className="tpl-repo" data-testid="template-repo">
            <h2 className="small-title">{repoTitle(repo)}</h2>
            {repo.error && (
              <RepoErrorNotice
                error={repo.error}
                busy={retrying.has(repo.id)}
                onRetry={() => retry(repo.id)}
              />
            )}
            {shown.length > 0 && (
              <ul className="tpl-list">
                {shown.map((tpl) => {
                  const selected = picked?.repo === repo.id && picked.name === tpl.name;
                  return (
                    <li key={tpl.name}>
                      <button
                        type="button"
                        className="tpl-item"
                        aria-pressed={selected}
                        onClick={() => onPick(repo.id, tpl.name)}
                        data-testid="template-item"
                      >
                        <ServerTypeIcon type={tpl.type} icon={tpl.icon} size={36} />
                        <span className="tpl-item-main">
                          <span className="tpl-item-name">{tpl.display || tpl.name}</span>
                          <span className="muted small">{tpl.name}</span>
                        </span>
                        {selected && <ActionIcon name="check" />}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
