import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { deleteRepo } from "../../api/templates";
import { confirmAsync } from "../../components/confirmStore";
import { ListTypeToggle } from "../../components/ListTypeToggle";
import { NotPermitted } from "../../components/NotPermitted";
import { SearchBox } from "../../components/SearchBox";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { LastKnownNote } from "../../offline/LastKnownNote";
import { OnlineLink, offlineReason } from "../../offline/NeedsNetwork";
import { online } from "../../offline/network";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import { useListHotkeys } from "../useListHotkeys";
import { AddRepoDialog } from "./AddRepoDialog";
import { RepoSection } from "./RepoSection";
import { type RepoState, useTemplateRepos } from "./useTemplateRepos";
import "../../components/controls.css";
import "../nodes/nodes.css";
import "./templates.css";

export default function TemplateList() {
  const { repos, failed, fresh, at, added, removed, retry } = useTemplateRepos();
  const [query, setQuery] = useState("");
  const [adding, setAdding] = useState(false);
  const layout = listType.value;
  const canEditLocal = hasScope("templates.local.edit");
  const canAddRepo = hasScope("templates.repo.create");
  const canRemoveRepo = hasScope("templates.repo.delete");
  useListHotkeys(canEditLocal ? { label: msg`New template`, href: "/templates/new" } : undefined);

  if (!hasScope("templates.view")) return <NotPermitted />;
  const old = !fresh || !online.value;

  const remove = async (repo: RepoState) => {
    const yes = await confirmAsync({
      title: t`Remove repository ${repo.name}?`,
      body: t`Its templates are no longer offered for new servers. Servers made from them keep running. You can add the repository again later.`,
      confirm: { text: t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deleteRepo(repo.id);
      removed(repo.id);
      toastSuccess(t`Repository ${repo.name} removed`);
    } catch {
      // the global handler says why
    }
  };

  return (
    <section className="panel template-screen">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Templates</Trans>
        </h1>
        <div className="screen-actions">
          {canAddRepo && (
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => setAdding(true)}
              disabled={!online.value}
              title={online.value ? undefined : offlineReason()}
            >
              <ScreenIcon name="plus" size={18} />
              <Trans>Add repository</Trans>
            </button>
          )}
          {canEditLocal && (
            <OnlineLink href="/templates/new" className="btn">
              <ScreenIcon name="plus" size={18} />
              <Trans>New template</Trans>
            </OnlineLink>
          )}
        </div>
      </header>
      <div className="list-toolbar">
        <SearchBox value={query} onValue={setQuery} label={t`Search templates`} />
        <ListTypeToggle />
      </div>

      {repos === undefined ? (
        failed ? (
          <p className="muted">
            <Trans>The template repositories could not be loaded.</Trans>
          </p>
        ) : (
          <Spinner />
        )
      ) : (
        <>
          {old && repos.length > 0 && <LastKnownNote at={at} />}
          {repos.map((repo) => (
            <RepoSection
              key={repo.id}
              repo={repo}
              query={query}
              layout={layout}
              canCreateLocal={canEditLocal}
              onRemove={
                !repo.isLocal && !repo.isBuiltIn && canRemoveRepo ? () => void remove(repo) : undefined
              }
              onRetry={() => retry(repo.id)}
            />
          ))}
        </>
      )}
      {adding && <AddRepoDialog onClose={() => setAdding(false)} onAdded={added} />}
    </section>
  );
}
