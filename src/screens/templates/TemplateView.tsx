import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "wouter";
import { type ApiError, isApiError } from "../../api/errors";
import { type FullTemplate, getTemplate, LOCAL_REPO, listRepos } from "../../api/templates";
import { quiet, reportSessionEnd } from "../../app/background";
import type { ScreenProps } from "../../app/routes";
import { useLoad } from "../../app/useLoad";
import { NotPermitted } from "../../components/NotPermitted";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { hasScope } from "../../state/scopes";
import { CopyToLocalDialog } from "./CopyToLocalDialog";
import { errorText } from "./errorText";
import { LocalTemplate } from "./LocalTemplate";
import { TemplateDetails } from "./TemplateDetails";
import { TemplateHead } from "./TemplateHead";
import "../../components/controls.css";
import "../nodes/nodes.css";
import "./templates.css";

type Loaded = { template: FullTemplate } | { error: ApiError | "missing" };

/** One template: the editor for a local one (with templates.local.edit), otherwise read-only. */
export default function TemplateView({ params }: ScreenProps) {
  const repo = Number(params.repo);
  const name = params.id ?? "";
  const [copying, setCopying] = useState(false);
  const allowed = hasScope("templates.view");
  const canEditLocal = hasScope("templates.local.edit");

  const valid = Number.isInteger(repo) && repo >= 0 && !!name;
  const { data: loaded } = useLoad<Loaded>(
    allowed &&
      (async () => {
        if (!valid) return { error: "missing" };
        try {
          return { template: await getTemplate(repo, name, { exempt: true }) };
        } catch (err) {
          reportSessionEnd(err);
          return { error: isApiError(err) && err.status !== 404 && err.status !== 400 ? err : "missing" };
        }
      }),
    [repo, name, allowed],
  );
  const repos = useLoad(allowed && valid && repo !== LOCAL_REPO && (() => listRepos(quiet)), [
    repo,
    name,
    allowed,
  ]);
  const repoName = repos.data?.find((r) => r.id === repo)?.name;

  if (!allowed) return <NotPermitted />;
  if (!loaded) return <Spinner />;
  if ("error" in loaded) {
    return (
      <Panel
        title={
          loaded.error === "missing" ? <Trans>Template not found</Trans> : <Trans>Template unavailable</Trans>
        }
      >
        <p data-testid="template-missing">
          {loaded.error === "missing" ? (
            <Trans>There is no template {name} in this repository.</Trans>
          ) : (
            errorText(loaded.error)
          )}
        </p>
        <Link href="/templates">
          <Trans>Back to the templates</Trans>
        </Link>
      </Panel>
    );
  }

  const { template } = loaded;
  const local = repo === LOCAL_REPO;
  return (
    <div className="template-screen template-view">
      {local && canEditLocal ? (
        <LocalTemplate key={name} name={name} template={template} />
      ) : (
        <>
          <TemplateHead
            display={template.display || name}
            name={name}
            repoName={local ? t`Local` : (repoName ?? t`Repository ${repo}`)}
            local={local}
            actions={
              canEditLocal && (
                <button type="button" className="btn btn-outline" onClick={() => setCopying(true)}>
                  <ScreenIcon name="copy" size={18} />
                  <Trans>Copy to local</Trans>
                </button>
              )
            }
          />
          <TemplateDetails template={template} />
        </>
      )}
      {copying && <CopyToLocalDialog template={template} name={name} onClose={() => setCopying(false)} />}
    </div>
  );
}
