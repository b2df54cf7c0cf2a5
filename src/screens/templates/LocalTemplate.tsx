import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { useLocation } from "wouter";
import { deleteLocalTemplate, type FullTemplate } from "../../api/templates";
import { confirmAsync } from "../../components/confirmStore";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { inReadingOrder, printDoc, withoutPanelFields } from "./draft";
import { saveDraft } from "./saveDraft";
import { TemplateEditor } from "./TemplateEditor";
import { TemplateHead } from "./TemplateHead";
import { useLeaveGuard } from "./useLeaveGuard";
import { useTemplateDraft } from "./useTemplateDraft";

/** A local template opened by someone who may change it: the editor, Save and Delete. */
export function LocalTemplate({ name, template }: { name: string; template: FullTemplate }) {
  const draft = useTemplateDraft(
    printDoc(inReadingOrder(withoutPanelFields({ ...template } as Record<string, unknown>))),
  );
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  useLeaveGuard(draft.dirty);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    try {
      if (await saveDraft(name, draft)) toastSuccess(t`Template ${name} saved`);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const yes = await confirmAsync({
      title: t`Delete template ${name}?`,
      body: t`It is removed from the local repository. Servers made from it keep running.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setBusy(true);
    try {
      await deleteLocalTemplate(name);
      draft.markSaved();
      toastSuccess(t`Template ${name} deleted`);
      navigate("/templates");
    } catch {
      // the global handler says why
      setBusy(false);
    }
  };

  return (
    <>
      <TemplateHead
        display={draft.common?.display || template.display || name}
        name={name}
        repoName={t`Local`}
        local
        actions={
          <>
            <button type="button" className="btn btn-outline color-error" onClick={remove} disabled={busy}>
              <ScreenIcon name="trash" size={18} />
              <Trans>Delete</Trans>
            </button>
            <button
              type="button"
              className="btn"
              onClick={save}
              disabled={busy || !draft.dirty || !draft.savable}
              data-testid="save-template"
            >
              <ScreenIcon name="save" size={18} />
              <Trans>Save</Trans>
            </button>
          </>
        }
      />
      <TemplateEditor draft={draft} />
    </>
  );
}
