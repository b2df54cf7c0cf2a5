import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useRef, useState } from "react";
import { fileUrl, NotTextError, type NotTextReason, readText, writeText } from "../../../api/files";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { toastSuccess } from "../../../components/toastStore";
import { editorPhrases } from "../../editorPhrases";
import { useLeaveGuard } from "../../templates/useLeaveGuard";
import { formatBytes } from "../format";
import "./text-editor.css";
import type { CodeEditor } from "./codeEditor";
import { FileIcon } from "./fileIcons";
import { EDIT_LIMIT } from "./kinds";
import { toEditable, toStored } from "./lineEndings";
import { baseName, parentPath, shownPath } from "./paths";
import { isAbort, reportError } from "./reportError";

// The text editor of the file manager, loaded only when a file is opened: CodeMirror (fetched with
// the file, never before) with highlighting by file name, search and replace, saved with PUT.

type Loaded =
  | { state: "loading" }
  | { state: "ready"; crlf: boolean }
  | { state: "refused"; reason: NotTextReason }
  | { state: "failed" };

function refusal(reason: NotTextReason, size: number | undefined, locale: string): string {
  if (reason === "tooLarge") {
    const limit = formatBytes(EDIT_LIMIT, locale);
    if (size === undefined) return t`This file is larger than ${limit}, too large to edit here.`;
    const shown = formatBytes(size, locale);
    return t`This file has ${shown}, more than the ${limit} the editor opens. Download it instead.`;
  }
  if (reason === "folder") return t`This is a folder, not a file.`;
  return t`This file is not text (or not UTF-8), so it cannot be edited here. Download it instead.`;
}

export default function TextEditor({
  serverId,
  path,
  size,
  canEdit,
  active,
  locale,
  onClose,
  onSaved,
}: {
  serverId: string;
  path: string;
  /** The size the listing gave, if known: too large a file is refused without reading it. */
  size: number | undefined;
  canEdit: boolean;
  /** Whether the section is shown (Ctrl+S listens only then). */
  active: boolean;
  locale: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>(() =>
    size !== undefined && size > EDIT_LIMIT ? { state: "refused", reason: "tooLarge" } : { state: "loading" },
  );
  const [text, setText] = useState("");
  const [saved, setSaved] = useState("");
  const [saving, setSaving] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditor | null>(null);
  const dirty = loaded.state === "ready" && text !== saved;
  const name = baseName(path);
  useLeaveGuard(dirty);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `size` only decides the first state
  useEffect(() => {
    if (size !== undefined && size > EDIT_LIMIT) return;
    const controller = new AbortController();
    readText(serverId, path, EDIT_LIMIT, controller.signal)
      .then((raw) => {
        const editable = toEditable(raw);
        setText(editable.text);
        setSaved(editable.text);
        setLoaded({ state: "ready", crlf: editable.crlf });
      })
      .catch((err) => {
        if (controller.signal.aborted || isAbort(err)) return;
        if (err instanceof NotTextError) {
          setLoaded({ state: "refused", reason: err.reason });
          return;
        }
        reportError(err);
        setLoaded({ state: "failed" });
      });
    return () => controller.abort();
  }, [serverId, path]);

  // CodeMirror and the file's grammar load beside the file; the editor is built once both are here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per opened file; `text` seeds it
  useEffect(() => {
    if (loaded.state !== "ready" || !host.current) return;
    let gone = false;
    const parent = host.current;
    void (async () => {
      const kit = await import("./codeEditor");
      const language = await kit.languageFor(path);
      if (gone) return;
      editor.current = kit.createCodeEditor({
        parent,
        text,
        readOnly: !canEdit,
        language,
        attributes: { "aria-label": t`Content of ${name}`, "data-testid": "file-editor-text" },
        phrases: editorPhrases(),
        onChange: setText,
      });
    })();
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [loaded.state, path, canEdit]);

  const save = useCallback(async () => {
    if (!canEdit || loaded.state !== "ready" || saving) return;
    const snapshot = text;
    setSaving(true);
    try {
      await writeText(serverId, path, toStored(snapshot, loaded.crlf));
      setSaved(snapshot);
      toastSuccess(t`Saved`);
      onSaved();
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  }, [canEdit, loaded, saving, text, serverId, path, onSaved]);

  // Ctrl+S / Cmd+S saves (and never opens the browser's "save page") while the editor is shown.
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active, save]);

  const close = async () => {
    if (dirty) {
      const discard = await confirmAsync({
        title: t`Discard the changes?`,
        body: t`The changes to this file have not been saved.`,
        confirm: { text: t`Discard`, color: "error" },
        cancel: { text: t`Keep editing`, color: "neutral" },
      });
      if (!discard) return;
    }
    onClose();
  };

  const parent = parentPath(path);
  const folder = parent ? shownPath(parent) : undefined;
  return (
    <section className="fm-editor" data-testid="file-editor" aria-label={t`Editor of ${name}`}>
      <header className="fm-editor-head">
        <button
          type="button"
          className="btn btn-outline fm-editor-back"
          onClick={() => void close()}
          data-testid="file-editor-close"
        >
          <FileIcon name="chevron" size={18} className="fm-back-icon" />
          <Trans>Back to the folder</Trans>
        </button>
        <div className="fm-editor-title">
          <h2 className="fm-editor-name">{name}</h2>
          {folder && <p className="muted small fm-editor-path">{t`in ${folder}`}</p>}
        </div>
        <div className="fm-editor-tools">
          <span className="fm-editor-status small" role="status" data-testid="file-editor-status">
            {loaded.state !== "ready"
              ? ""
              : !canEdit
                ? t`Read only`
                : saving
                  ? t`Saving…`
                  : dirty
                    ? t`Unsaved changes`
                    : t`No changes`}
          </span>
          {loaded.state === "ready" && (
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => editor.current?.openSearch()}
              title={t`Find and replace`}
              aria-keyshortcuts="Control+F Meta+F"
              data-testid="file-editor-search"
            >
              <FileIcon name="search" size={18} />
              <span className="fm-tool-text">
                <Trans>Find</Trans>
              </span>
            </button>
          )}
          <a className="btn btn-outline" href={fileUrl(serverId, path)} download={name} title={t`Download`}>
            <FileIcon name="download" size={18} />
            <span className="fm-tool-text">
              <Trans>Download</Trans>
            </span>
          </a>
          {canEdit && loaded.state === "ready" && (
            <button
              type="button"
              className="btn"
              onClick={() => void save()}
              disabled={!dirty || saving}
              data-testid="file-save"
              aria-keyshortcuts="Control+S Meta+S"
            >
              <FileIcon name="save" size={18} />
              <Trans>Save</Trans>
            </button>
          )}
        </div>
      </header>
      {loaded.state === "loading" && <Spinner />}
      {loaded.state === "refused" && (
        <p className="fm-refused" data-testid="file-editor-refused">
          {refusal(loaded.reason, size, locale)}
        </p>
      )}
      {loaded.state === "failed" && (
        <p className="fm-refused">
          <Trans>The file could not be read.</Trans>
        </p>
      )}
      {loaded.state === "ready" && (
        // Files are code and configuration: left to right whatever the page's direction.
        <div className="fm-code" dir="ltr" ref={host} />
      )}
    </section>
  );
}
