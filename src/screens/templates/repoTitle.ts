import { t } from "@lingui/core/macro";
import type { TemplateRepo } from "../../api/templates";

/** How a repository is named on screen: the local and starter ones by what they are, others by their name. */
export function repoTitle(repo: TemplateRepo): string {
  if (repo.isLocal) return t`Local templates`;
  if (repo.isBuiltIn) return t`Starter templates`;
  return repo.name;
}
