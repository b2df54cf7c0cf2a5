import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { type FullTemplate, saveLocalTemplate } from "../../api/templates";
import { FormDialog } from "../../components/FormDialog";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { withoutPanelFields } from "./draft";
import { templateHref } from "./TemplateEntry";
import { newNameProblem } from "./templateName";

/** Copies a repository's template into the local repository, under a name chosen here, to edit it. */
export function CopyToLocalDialog({
  template,
  name: original,
  onClose,
}: {
  template: FullTemplate;
  name: string;
  onClose: () => void;
}) {
  const [name, setName] = useState(original);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();

  const copy = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const trimmed = name.trim();
      const why = await newNameProblem(trimmed);
      setProblem(why);
      if (why) return;
      await saveLocalTemplate(trimmed, withoutPanelFields({ ...template }));
      toastSuccess(t`Copied to the local template ${trimmed}`);
      onClose();
      navigate(templateHref(0, trimmed));
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={t`Copy to the local repository`}
      testId="copy-dialog"
      submitLabel=<Trans>Copy</Trans>
      submitIcon="copy"
      busy={busy}
      onSubmit={copy}
      onClose={onClose}
    >
      <p className="small">
        <Trans>The copy can be edited; the original stays as its repository has it.</Trans>
      </p>
      <TextField
        label={t`Name of the copy`}
        value={name}
        onValue={(v) => {
          setName(v);
          setProblem(undefined);
        }}
        invalid={!!problem}
        hint={problem ?? t`Letters, digits, . - _`}
        maxLength={100}
        autoFocus
        autoComplete="off"
        spellCheck={false}
      />
    </FormDialog>
  );
}
