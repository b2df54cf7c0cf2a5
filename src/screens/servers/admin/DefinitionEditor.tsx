import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import { getDefinition, putDefinition } from "../../../api/servers";
import { useDraft } from "../../../app/useDraft";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { ScreenIcon } from "../../../components/screenIcons";
import { toastSuccess } from "../../../components/toastStore";
import { type TemplateKit, useTemplateKit } from "../templateKit";

export interface DefinitionCheck {
  /** The parsed document when it is valid. */
  value?: unknown;
  problems: { path: string; problem: string }[];
}

/** JSON syntax first, then the template format (every problem with its path). */
export function checkDefinition(kit: TemplateKit | undefined, text: string): DefinitionCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problems: [{ path: "", problem: err instanceof Error ? err.message : String(err) }] };
  }
  if (!kit) return { value: parsed, problems: [] };
  const result = kit.parseTemplate(parsed);
  return result.ok ? { value: parsed, problems: [] } : { problems: result.problems };
}

/** The server's definition as JSON, checked as it is typed; saved whole. */
export function DefinitionEditor({
  id,
  canEdit,
  onSaved,
}: {
  id: string;
  canEdit: boolean;
  onSaved: (definition: { type?: string; icon?: string }) => void;
}) {
  const kit = useTemplateKit();
  const { data: saved, setData: setSaved } = useLoad(
    () => getDefinition(id).then((d) => JSON.stringify(d, null, 2)),
    [id],
  );
  const [text, setText] = useDraft(saved ?? "", id);
  const [saving, setSaving] = useState(false);

  const check = useMemo(() => checkDefinition(kit, text), [kit, text]);
  if (saved === undefined) return <Spinner />;
  const changed = text !== saved;
  const valid = check.problems.length === 0;

  const save = async () => {
    if (!valid || !changed) return;
    setSaving(true);
    try {
      await putDefinition(id, check.value);
      setSaved(text);
      const doc = check.value as { type?: string; icon?: string };
      onSaved({ type: doc.type, icon: doc.icon });
      toastSuccess(t`Definition saved`);
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="settings-block">
      <h2 className="small-title">
        <Trans>Definition</Trans>
      </h2>
      <p className="muted small">
        <Trans>
          The server's full definition: variables, install steps, run command, environment. It takes effect
          the next time the server starts.
        </Trans>
      </p>
      <textarea
        className={valid ? "json-editor" : "json-editor invalid"}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        readOnly={!canEdit}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        aria-label={t`Definition (JSON)`}
        aria-invalid={!valid || undefined}
        aria-describedby="definition-problems"
        rows={22}
        data-testid="definition-editor"
      />
      <div id="definition-problems" aria-live="polite">
        {!valid && (
          <ul className="problems" data-testid="definition-problems">
            {check.problems.slice(0, 20).map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id and are re-made on each edit
              <li key={i}>
                {p.path && <code>{p.path}</code>} {p.problem}
              </li>
            ))}
            {check.problems.length > 20 && (
              <li>
                <Trans>…and {check.problems.length - 20} more</Trans>
              </li>
            )}
          </ul>
        )}
      </div>
      {canEdit && (
        <div className="form-end">
          <button
            type="button"
            className="btn color-neutral"
            disabled={!changed || saving}
            onClick={() => setText(saved)}
          >
            <Trans>Revert</Trans>
          </button>
          <button
            type="button"
            className="btn"
            disabled={!changed || !valid || saving}
            onClick={() => void save()}
            data-testid="save-definition"
          >
            <ScreenIcon name="save" size={18} />
            <Trans>Save</Trans>
          </button>
        </div>
      )}
    </section>
  );
}
