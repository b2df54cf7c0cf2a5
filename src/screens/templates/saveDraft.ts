import { isApiError } from "../../api/errors";
import { saveLocalTemplate } from "../../api/templates";
import { handleApiError } from "../../app/errorHandler";
import { withoutPanelFields } from "./draft";
import type { TemplateDraft } from "./useTemplateDraft";

/**
 * PUTs the draft into the local repository. A template the panel refuses has its problem shown
 * in the editor (by path); anything else goes to the global handler. True when saved.
 */
export async function saveDraft(name: string, draft: TemplateDraft): Promise<boolean> {
  if (!draft.doc) return false;
  try {
    await saveLocalTemplate(name, withoutPanelFields(draft.doc), { exempt: [400] });
    draft.markSaved();
    return true;
  } catch (err) {
    if (isApiError(err) && err.code === "ErrTemplateInvalid") {
      const { path, problem } = err.metadata ?? {};
      draft.refused({ path: String(path ?? ""), problem: String(problem ?? err.msg ?? "") });
    } else if (isApiError(err) && err.status === 400) handleApiError(err);
    return false;
  }
}
