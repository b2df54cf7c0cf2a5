import { Link } from "wouter";
import type { TemplateSummary } from "../../api/templates";
import { Icon } from "../../components/icons";

export const templateHref = (repo: number, name: string) =>
  `/templates/view/${repo}/${encodeURIComponent(name)}`;

/** One template in a repo's section: its display name, file name and server type. */
export function TemplateEntry({ repo, template }: { repo: number; template: TemplateSummary }) {
  const display = template.display || template.name;
  return (
    <li>
      <Link href={templateHref(repo, template.name)} className="template-entry" data-testid="template-entry">
        <span className="template-entry-icon">
          <Icon name="template" size={20} />
        </span>
        <span className="template-entry-main">
          <span className="template-entry-display">{display}</span>
          <span className="template-entry-name muted">{template.name}</span>
        </span>
        {template.type && <span className="tag template-type">{template.type}</span>}
      </Link>
    </li>
  );
}
