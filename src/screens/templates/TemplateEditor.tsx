import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useId, useMemo, useRef } from "react";
import { Panel } from "../../components/Panel";
import { ScreenIcon } from "../../components/screenIcons";
import { CommonFields } from "./CommonFields";
import { commandIsList } from "./draft";
import { JsonEditor, type JsonEditorHandle } from "./JsonEditor";
import { lineColumn, scanJson, spanOfPath } from "./jsonScan";
import { type LocatedProblem, ProblemList } from "./ProblemList";
import type { TemplateDraft } from "./useTemplateDraft";

/** The form for the common fields beside the whole template as JSON, both editing one text. */
export function TemplateEditor({ draft }: { draft: TemplateDraft }) {
  const editor = useRef<JsonEditorHandle>(null);
  const problemsId = useId();
  const { text, syntax, problems } = draft;
  const problemsKey = JSON.stringify(problems);

  // biome-ignore lint/correctness/useExhaustiveDependencies: problemsKey stands for problems
  const located = useMemo((): LocatedProblem[] => {
    if (problems.length === 0) return [];
    const { spans } = scanJson(text);
    return problems.map((p) => {
      const span = spanOfPath(spans, p.path);
      return span ? { ...p, from: span.from, to: span.end, line: lineColumn(text, span.from).line } : p;
    });
  }, [text, problemsKey]);

  const badLines = useMemo(() => {
    const lines = new Set<number>();
    if (syntax) lines.add(syntax.line);
    for (const p of located) if (p.line !== undefined) lines.add(p.line);
    return lines;
  }, [syntax, located]);

  const reveal = (from: number, to: number) => editor.current?.reveal(from, to);

  const broken = !!syntax || problems.length > 0;

  return (
    <div className="template-editor">
      <Panel title={<Trans>Common fields</Trans>} className="editor-form">
        <CommonFields
          values={draft.common}
          onValue={draft.setCommon}
          problems={problems}
          commandIsList={!!draft.doc && commandIsList(draft.doc)}
        />
      </Panel>
      <Panel className="editor-json">
        <div className="editor-json-head">
          <h2 className="panel-title">
            <Trans>Template JSON</Trans>
          </h2>
          <span className="editor-status" role="status" data-testid="template-status">
            {syntax ? (
              <span className="status-bad">
                <ScreenIcon name="unreachable" size={18} />
                <Trans>Not valid JSON</Trans>
              </span>
            ) : problems.length > 0 ? (
              <span className="status-bad">
                <ScreenIcon name="unreachable" size={18} />
                <Trans>Not a valid template</Trans>
              </span>
            ) : draft.checked ? (
              <span className="status-good">
                <ScreenIcon name="reachable" size={18} />
                <Trans>Valid template</Trans>
              </span>
            ) : (
              <span className="muted">
                <Trans>Checking…</Trans>
              </span>
            )}
          </span>
        </div>
        {draft.converted && (
          <p className="note small">
            <Trans>
              This is an older template format. The panel converts it to the current one when you save.
            </Trans>
          </p>
        )}
        <ProblemList id={problemsId} syntax={syntax} problems={located} reveal={reveal} />
        <JsonEditor
          label={t`Template JSON`}
          text={text}
          onText={draft.setText}
          badLines={badLines}
          editorRef={editor}
          describedBy={broken ? problemsId : undefined}
          invalid={broken}
        />
      </Panel>
    </div>
  );
}
