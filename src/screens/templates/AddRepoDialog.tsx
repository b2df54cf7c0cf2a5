import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { isApiError } from "../../api/errors";
import { addRepo, type TemplateRepo } from "../../api/templates";
import { handleApiError } from "../../app/errorHandler";
import { FormDialog } from "../../components/FormDialog";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { fieldProblemText } from "./fieldProblem";
import {
  checkRepoForm,
  emptyRepoForm,
  type RepoFieldName,
  type RepoProblems,
  repoBody,
  repoFieldOfError,
} from "./repoForm";

/** Adds a read-only template repository: a git repository, a .tar.gz or .zip archive, or a host folder. */
export function AddRepoDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (r: TemplateRepo) => void;
}) {
  const [values, setValues] = useState(emptyRepoForm);
  const [problems, setProblems] = useState<RepoProblems>({});
  const [busy, setBusy] = useState(false);

  const labels: Record<RepoFieldName, string> = { name: t`Name`, url: t`URL`, branch: t`Branch` };
  const hints: Record<RepoFieldName, string> = {
    name: t`Shown as the heading of its templates`,
    url: t`A git repository (https://…), a .tar.gz or .zip archive of one, or a folder on the panel's host (/path)`,
    branch: t`Git only; empty means the repository's default branch`,
  };

  const field = (name: RepoFieldName, extra?: { autoFocus?: boolean; inputMode?: "url" }) => {
    const p = problems[name];
    return (
      <TextField
        label={labels[name]}
        name={name}
        value={values[name]}
        onValue={(v) => {
          setValues((old) => ({ ...old, [name]: v }));
          setProblems((old) => ({ ...old, [name]: undefined }));
        }}
        invalid={!!p}
        hint={p ? fieldProblemText(p.code, p.values, labels[name]) : hints[name]}
        required={name !== "branch"}
        autoComplete="off"
        spellCheck={false}
        {...extra}
      />
    );
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const local = checkRepoForm(values);
    setProblems(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const repo = await addRepo(repoBody(values), { exempt: [400, 409] });
      toastSuccess(t`Repository ${repo.name} added`);
      onAdded(repo);
      onClose();
    } catch (err) {
      setBusy(false);
      if (!isApiError(err)) return;
      const f = repoFieldOfError(err.code, err.metadata);
      if (f && (err.status === 400 || err.status === 409))
        setProblems({ [f]: { code: err.code, values: err.metadata } });
      else if (err.status === 400 || err.status === 409) handleApiError(err);
    }
  };

  return (
    <FormDialog
      title={t`Add a template repository`}
      testId="add-repo-dialog"
      submitLabel=<Trans>Add repository</Trans>
      submitIcon="plus"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      {field("name", { autoFocus: true })}
      {field("url", { inputMode: "url" })}
      {field("branch")}
      <p className="muted small">
        <Trans>
          Templates of added repositories are read-only; copy one to the local repository to change it.
        </Trans>
      </p>
    </FormDialog>
  );
}
