import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useState } from "react";
import { FormDialog } from "../../../components/FormDialog";
import { TextField } from "../../../components/TextField";
import { type NewArchiveFormat, newArchiveFormat, withArchiveSuffix } from "./kinds";
import { type NameProblem, nameProblem, pathProblem, resolveTyped, shownPath } from "./paths";

function problemText(problem: NameProblem, what: "name" | "path"): string {
  switch (problem) {
    case "empty":
      return what === "name" ? t`Enter a name.` : t`Enter a path.`;
    case "slash":
      return t`A name cannot contain “/”.`;
    case "dots":
      return t`“.” and “..” cannot be used as names.`;
    default:
      return t`A name cannot contain a NUL character.`;
  }
}

/** Why `name` cannot be a new entry beside `taken`, if it cannot. */
function newNameProblem(name: string, taken: ReadonlySet<string>): string | undefined {
  const problem = nameProblem(name);
  if (problem) return problemText(problem, "name");
  if (taken.has(name)) return t`There is already a file or folder with this name here.`;
  return undefined;
}

/** What the dialogs that send the entry `name` of the folder `dir` somewhere (move, extract) are given. */
interface EntryPathDialogProps {
  dir: string;
  name: string;
  /** The path from the server folder (resolved from what was typed). */
  onSubmit: (path: string) => Promise<boolean>;
  onClose: () => void;
}

/**
 * A dialog around one text field: the problem shows once the value was changed, the submit button
 * waits while the call runs, and the dialog closes when `onSubmit` answers true.
 */
function FieldDialog({
  title,
  label,
  initial,
  hint,
  submitText,
  check,
  onSubmit,
  onClose,
  testId,
  children,
}: {
  title: string;
  label: string;
  initial: string;
  hint?: string;
  submitText: string;
  check: (value: string) => string | undefined;
  onSubmit: (value: string) => Promise<boolean>;
  onClose: () => void;
  testId: string;
  children?: (value: string, setValue: (v: string) => void) => ReactNode;
}) {
  const [value, setValue] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const problem = check(value);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || busy) return;
    setBusy(true);
    try {
      if (await onSubmit(value)) onClose();
    } finally {
      setBusy(false);
    }
  };
  const change = (v: string) => {
    setValue(v);
    setTouched(true);
  };
  const shownProblem = touched ? problem : undefined;
  return (
    <FormDialog
      title={title}
      testId={testId}
      submitLabel={submitText}
      cancelColor="neutral"
      busy={busy}
      invalid={!!shownProblem}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={label}
        value={value}
        onValue={change}
        hint={shownProblem ?? hint}
        invalid={!!shownProblem}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        autoFocus
      />
      {children?.(value, change)}
    </FormDialog>
  );
}

/** New folder or new empty file: a name in the current folder. */
export function NewEntryDialog({
  kind,
  dir,
  taken,
  onSubmit,
  onClose,
}: {
  kind: "folder" | "file";
  dir: string;
  taken: ReadonlySet<string>;
  onSubmit: (name: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const where = shownPath(dir);
  return (
    <FieldDialog
      title={kind === "folder" ? t`New folder` : t`New file`}
      label={kind === "folder" ? t`Folder name` : t`File name`}
      hint={t`In ${where}`}
      initial=""
      submitText={t`Create`}
      testId={kind === "folder" ? "new-folder-dialog" : "new-file-dialog"}
      check={(value) => newNameProblem(value.trim(), taken)}
      onSubmit={(value) => onSubmit(value.trim())}
      onClose={onClose}
    />
  );
}

/** Rename or move: a new name here, or a path from the server's folder. */
export function MoveDialog({ dir, name, onSubmit, onClose }: EntryPathDialogProps) {
  return (
    <FieldDialog
      title={t`Rename or move ${name}`}
      label={t`New name or path`}
      hint={t`A name in this folder, or a path from the server folder starting with “/”.`}
      initial={name}
      submitText={t`Rename or move`}
      testId="move-dialog"
      check={(value) => {
        const problem = pathProblem(resolveTyped(dir, value));
        if (problem) return problemText(problem, "path");
        if (resolveTyped(dir, value) === resolveTyped(dir, name)) return t`That is where it is now.`;
        return undefined;
      }}
      onSubmit={(value) => onSubmit(resolveTyped(dir, value))}
      onClose={onClose}
    />
  );
}

/** Archive the selected entries into a new .zip or .tar.gz in the current folder. */
export function ArchiveDialog({
  count,
  initialName,
  taken,
  onSubmit,
  onClose,
}: {
  count: number;
  initialName: string;
  taken: ReadonlySet<string>;
  onSubmit: (name: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const formats: [NewArchiveFormat, string][] = [
    ["zip", "ZIP (.zip)"],
    ["tar.gz", "tar.gz (.tar.gz)"],
  ];
  return (
    <FieldDialog
      title={plural(count, { one: "Archive # item", other: "Archive # items" })}
      label={t`Archive name`}
      hint={t`Ends in .zip or .tar.gz; the name chooses the format.`}
      initial={initialName}
      submitText={t`Create archive`}
      testId="archive-dialog"
      check={(value) => {
        const name = value.trim();
        if (!nameProblem(name) && !newArchiveFormat(name)) return t`The name must end in .zip or .tar.gz.`;
        return newNameProblem(name, taken);
      }}
      onSubmit={(value) => onSubmit(value.trim())}
      onClose={onClose}
    >
      {(value, setValue) => (
        <fieldset className="fm-formats">
          <legend>
            <Trans>Format</Trans>
          </legend>
          {formats.map(([format, label]) => (
            <label key={format} className="fm-format">
              <input
                type="radio"
                name="archive-format"
                checked={newArchiveFormat(value.trim()) === format}
                onChange={() => setValue(withArchiveSuffix(value.trim() || "archive", format))}
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
    </FieldDialog>
  );
}

/** Extract an archive into a folder (the current one unless changed; made if missing). */
export function ExtractDialog({ dir, name, onSubmit, onClose }: EntryPathDialogProps) {
  return (
    <FieldDialog
      title={t`Extract ${name}`}
      label={t`Into the folder`}
      hint={t`A path from the server folder starting with “/”, or a folder name here. Made if missing.`}
      initial={shownPath(dir)}
      submitText={t`Extract`}
      testId="extract-dialog"
      check={(value) => {
        if (!value.trim()) return problemText("empty", "path");
        const problem = pathProblem(resolveTyped(dir, value), true);
        return problem ? problemText(problem, "path") : undefined;
      }}
      onSubmit={(value) => onSubmit(resolveTyped(dir, value))}
      onClose={onClose}
    />
  );
}
