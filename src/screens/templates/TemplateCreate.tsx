import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type ChangeEvent, type ClipboardEvent, type FormEvent, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { NotPermitted } from "../../components/NotPermitted";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { hasScope } from "../../state/scopes";
import { isObject, minimalTemplate, printDoc } from "./draft";
import { ImportUrlDialog } from "./ImportUrlDialog";
import { saveDraft } from "./saveDraft";
import { TemplateEditor } from "./TemplateEditor";
import { templateHref } from "./TemplateEntry";
import { loadTemplateModule, useTemplateModule } from "./templateModule";
import { newNameProblem } from "./templateName";
import { useLeaveGuard } from "./useLeaveGuard";
import { useTemplateDraft } from "./useTemplateDraft";
import "../../components/controls.css";
import "../nodes/nodes.css";
import "./templates.css";

/** A new local template: its name, then the editor starting from the smallest valid template. */
export default function TemplateCreate() {
  const draft = useTemplateDraft(printDoc(minimalTemplate()));
  const [name, setName] = useState("");
  const [nameProblem, setNameProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const nameInput = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [askUrl, setAskUrl] = useState(false);
  const mod = useTemplateModule();
  useLeaveGuard(draft.dirty && !busy);

  if (!hasScope("templates.local.edit")) return <NotPermitted />;

  // A template or a Pterodactyl / Pelican egg (JSON or YAML) from a file, an address or the
  // clipboard: an egg is converted here, so the editor shows the template it becomes, or the
  // fields that cannot be converted. An empty name takes the egg's or the file's.
  const importText = async (text: string, fileName: string) => {
    const mod = await loadTemplateModule();
    const read = mod.parseDocumentText(text);
    if (!read.ok) {
      draft.setText(text);
      return;
    }
    const egg = mod.isEgg(read.document) ? mod.convertEgg(read.document) : undefined;
    draft.setText(printDoc(egg?.ok ? egg.document : read.document));
    const given =
      fileName.replace(/\.(json|ya?ml)$/i, "") || (egg ? String(egg.document?.display ?? "") : "");
    if (!name.trim() && given) setName(given.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 100));
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) await importText(await file.text(), file.name);
  };

  // A whole egg pasted into the editor, or a whole template in YAML (the editor is JSON), is
  // imported as a file would be; any other paste is an edit.
  // Before the editor takes the paste (capture), so an import is not also typed in.
  const paste = (e: ClipboardEvent<HTMLDivElement>) => {
    const text = e.clipboardData.getData("text/plain");
    const read = mod && text.trim() ? mod.parseDocumentText(text) : undefined;
    if (!mod || !read?.ok || !isObject(read.document)) return;
    if (!mod.isEgg(read.document) && /^\s*\{/.test(text)) return;
    e.preventDefault();
    void importText(text, "");
  };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const trimmed = name.trim();
      const problem = await newNameProblem(trimmed);
      setNameProblem(problem);
      if (problem) {
        nameInput.current?.querySelector("input")?.focus();
        return;
      }
      if (await saveDraft(trimmed, draft)) {
        toastSuccess(t`Template ${trimmed} created`);
        navigate(templateHref(0, trimmed));
      }
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="template-screen">
      <Link href="/templates" className="back-link">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Templates</Trans>
      </Link>
      <form className="panel template-create" onSubmit={create} noValidate>
        <h1 className="panel-title">
          <Trans>New template</Trans>
        </h1>
        <div className="create-row" ref={nameInput}>
          <TextField
            label={t`Name`}
            name="name"
            value={name}
            onValue={(v) => {
              setName(v);
              setNameProblem(undefined);
            }}
            invalid={!!nameProblem}
            hint={nameProblem ?? t`The template's id in the local repository: letters, digits, . - _`}
            maxLength={100}
            required
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="btn create-submit" disabled={busy || !draft.savable}>
            <ScreenIcon name="save" size={18} />
            <Trans>Create template</Trans>
          </button>
          {/* Or start from a template or an egg: a file, an address, or one pasted into the editor. */}
          <div className="template-imports">
            <button type="button" className="btn btn-outline" onClick={() => fileInput.current?.click()}>
              <ScreenIcon name="upload" size={18} />
              <Trans>Import a file</Trans>
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setAskUrl(true)}>
              <ScreenIcon name="link" size={18} />
              <Trans>Import from a URL</Trans>
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".json,.yaml,.yml,application/json"
              hidden
              tabIndex={-1}
              data-testid="template-import-file"
              onChange={importFile}
            />
          </div>
        </div>
      </form>
      <div onPasteCapture={paste}>
        <TemplateEditor draft={draft} />
      </div>
      {askUrl && <ImportUrlDialog onClose={() => setAskUrl(false)} onText={importText} />}
    </div>
  );
}
