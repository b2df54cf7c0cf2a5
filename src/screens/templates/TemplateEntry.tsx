import type { TemplateSummary } from "../../api/templates";
import { ItemEntry } from "../../components/ItemList";
import { ServerTypeIcon } from "../servers/serverIcons";

export const templateHref = (repo: number, name: string) =>
  `/templates/view/${repo}/${encodeURIComponent(name)}`;

/** One template in a repo's section: its display name, file name and server type. */
export function TemplateEntry({ repo, template }: { repo: number; template: TemplateSummary }) {
  return (
    <ItemEntry
      href={templateHref(repo, template.name)}
      testId="template-entry"
      icon={<ServerTypeIcon type={template.type} icon={template.icon} size={32} />}
      name={template.display || template.name}
      detail={<span className="template-entry-name">{template.name}</span>}
      side={template.type && <span className="tag template-type">{template.type}</span>}
    />
  );
}
