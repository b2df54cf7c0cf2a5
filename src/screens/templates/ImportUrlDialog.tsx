import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { isApiError } from "../../api/errors";
import { fetchTemplateText } from "../../api/templates";
import { FormDialog } from "../../components/FormDialog";
import { TextField } from "../../components/TextField";
import { fieldProblemText } from "./fieldProblem";

/**
 * Imports a template or an egg from an address: the panel fetches it (no CORS needed from the
 * host), and the page converts it as it does a file. Why a fetch failed is shown at the field.
 */
export function ImportUrlDialog({
  onClose,
  onText,
}: {
  onClose: () => void;
  onText: (text: string, fileName: string) => void;
}) {
  const [url, setUrl] = useState("");
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const label = t`URL`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const given = url.trim();
    if (!/^https?:\/\/\S+$/i.test(given)) {
      setProblem(fieldProblemText("ErrFieldInvalid", undefined, label));
      return;
    }
    setBusy(true);
    try {
      const { text } = await fetchTemplateText(given, { exempt: [400, 502] });
      onText(text, decodeURIComponent(new URL(given).pathname.split("/").pop() ?? ""));
      onClose();
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && (err.status === 400 || err.status === 502))
        setProblem(fieldProblemText(err.code, err.metadata, label));
    }
  };

  return (
    <FormDialog
      title={t`Import from a URL`}
      testId="import-url-dialog"
      submitLabel=<Trans>Import</Trans>
      submitIcon="link"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={label}
        name="url"
        value={url}
        onValue={(v) => {
          setUrl(v);
          setProblem(undefined);
        }}
        invalid={!!problem}
        hint={problem ?? t`A template or a Pterodactyl / Pelican egg (JSON or YAML), fetched by the panel`}
        required
        autoFocus
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
      />
    </FormDialog>
  );
}
