import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import type { Template } from "../../../../server/templates/index.ts";
import { getDefinition, putDefinition } from "../../../api/servers";
import { useDraft } from "../../../app/useDraft";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { ScreenIcon } from "../../../components/screenIcons";
import { toastSuccess } from "../../../components/toastStore";
import { LimitsFields } from "../LimitsFields";
import { limitTexts, readLimits } from "../limits";

/** The server's limits, for administrators: saved into its definition (they apply at the next start). */
export function LimitsEditor({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: definition, setData: setDefinition } = useLoad(() => getDefinition(id), [id]);
  const [texts, setTexts] = useDraft(limitTexts(definition?.limits), id);
  const [saving, setSaving] = useState(false);

  if (!definition) return <Spinner />;
  const { limits, invalid } = readLimits(texts);
  const changed = JSON.stringify(limitTexts(limits)) !== JSON.stringify(limitTexts(definition.limits));

  const save = async () => {
    setSaving(true);
    try {
      const { limits: _old, ...rest } = definition;
      const next: Template = Object.keys(limits).length ? { ...rest, limits } : rest;
      await putDefinition(id, next);
      setDefinition(next);
      toastSuccess(t`Limits saved`);
      onSaved();
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="settings-block">
      <LimitsFields texts={texts} onTexts={setTexts} titleClass="small-title" />
      <div className="form-end">
        <button
          type="button"
          className="btn"
          disabled={!changed || invalid.length > 0 || saving}
          onClick={() => void save()}
          data-testid="save-limits"
        >
          <ScreenIcon name="save" size={18} />
          <Trans>Save</Trans>
        </button>
      </div>
    </section>
  );
}
