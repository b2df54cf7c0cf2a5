import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { ScreenIcon } from "../../components/screenIcons";

/** The template's title (its display name), its id and repository, and the screen's actions. */
export function TemplateHead({
  display,
  name,
  repoName,
  local,
  actions,
}: {
  display: string;
  name: string;
  repoName: string;
  local?: boolean;
  actions?: ReactNode;
}) {
  return (
    <header className="template-head">
      <Link href="/templates" className="back-link">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Templates</Trans>
      </Link>
      <div className="template-head-row">
        <div className="template-head-main">
          <h1 data-testid="template-title">{display}</h1>
          <p className="template-head-sub muted">
            <code>{name}</code>
            <span className="tag">
              {local && <ScreenIcon name="home" size={12} />}
              {repoName}
            </span>
          </p>
        </div>
        {actions && <div className="screen-actions">{actions}</div>}
      </div>
    </header>
  );
}
