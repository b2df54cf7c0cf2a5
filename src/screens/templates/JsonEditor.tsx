import { type CSSProperties, type RefObject, useEffect, useImperativeHandle, useRef, useState } from "react";
import { Spinner } from "../../components/Spinner";
import { editorPhrases } from "../editorPhrases";
import type { CodeEditor } from "../servers/files/codeEditor";
import "../../components/code-area.css";

/** What the screen asks of the editor: select a problem's place. */
export interface JsonEditorHandle {
  reveal: (from: number, to: number) => void;
}

/**
 * The template as JSON text in the app's code editor (CodeMirror, fetched only when this opens,
 * never in the first load): JSON highlighting, line numbers, search; lines with a problem are
 * marked in the gutter. The text also changes from outside (the form beside it), and follows.
 */
export function JsonEditor({
  label,
  text,
  onText,
  badLines,
  editorRef,
  describedBy,
  invalid,
}: {
  label: string;
  text: string;
  onText: (text: string) => void;
  /** 1-based line numbers to mark. */
  badLines: ReadonlySet<number>;
  editorRef: RefObject<JsonEditorHandle | null>;
  describedBy?: string;
  invalid: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditor | null>(null);
  const [ready, setReady] = useState(false);
  const latest = useRef({ text, onText });
  latest.current = { text, onText };
  const lines = text.split("\n").length;
  const attributes: Record<string, string> = {
    "aria-label": label,
    "data-testid": "template-json",
    ...(invalid ? { "aria-invalid": "true" } : {}),
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
  };
  const attributesKey = JSON.stringify(attributes);

  useImperativeHandle(editorRef, () => ({ reveal: (from, to) => editor.current?.reveal(from, to) }), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: built once; text and attributes follow below
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    let gone = false;
    void (async () => {
      const kit = await import("../servers/files/codeEditor");
      const language = await kit.languageFor("template.json");
      if (gone) return;
      editor.current = kit.createCodeEditor({
        parent,
        text: latest.current.text,
        readOnly: false,
        language,
        attributes,
        phrases: editorPhrases(),
        onChange: (next) => latest.current.onText(next),
      });
      setReady(true);
    })();
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    if (ready) editor.current?.setText(text);
  }, [ready, text]);
  const badKey = [...badLines].join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: badKey stands for badLines
  useEffect(() => {
    if (ready) editor.current?.markLines(badLines);
  }, [ready, badKey, text]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attributesKey stands for attributes
  useEffect(() => {
    if (ready) editor.current?.setAttributes(attributes);
  }, [ready, attributesKey]);

  return (
    <div className="code-area json-editor" style={{ "--lines": lines } as CSSProperties} dir="ltr">
      {!ready && <Spinner />}
      <div className="json-code" ref={host} />
    </div>
  );
}
