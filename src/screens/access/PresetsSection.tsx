import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import {
  createPermissionPreset,
  deletePermissionPreset,
  listPermissionPresets,
  type PermissionPresetView,
  updatePermissionPreset,
} from "../../api/permissionPresets";
import { useLoad } from "../../app/useLoad";
import { confirmAsync } from "../../components/confirmStore";
import { Spinner } from "../../components/Spinner";
import { toastSuccess } from "../../components/toastStore";
import { builtInPresetText } from "../servers/scopes/presetLabels";
import { alwaysGranted } from "../servers/scopes/scopeLabels";
import { type ScopeSet, ScopeSetForm } from "./ScopeSetForm";

/** Presets of server scopes: the built-in four to read, administrators' own to add, change and delete. */
export function PresetsSection() {
  const { i18n } = useLingui();
  const { data: presets, reload } = useLoad((signal) => listPermissionPresets({ signal }), []);
  const [editing, setEditing] = useState<string | "new">();

  const save = async (id: string | "new", set: ScopeSet) => {
    try {
      if (id === "new") await createPermissionPreset(set);
      else await updatePermissionPreset(id, set);
      const name = set.name;
      toastSuccess(t`Preset ${name} saved`);
      setEditing(undefined);
      reload();
    } catch {
      // the global handler said why
    }
  };
  const remove = async (preset: PermissionPresetView) => {
    const name = preset.name;
    const yes = await confirmAsync({
      title: t`Delete the preset ${name}?`,
      body: t`Users given it keep their permissions; it is no longer offered.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deletePermissionPreset(preset.id);
      reload();
    } catch {
      // the global handler said why
    }
  };

  return (
    <section className="settings-block access-block" data-testid="presets">
      <header className="access-head">
        <h2 className="small-title">
          <Trans>Permission presets</Trans>
        </h2>
        {editing === undefined && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setEditing("new")}
            data-testid="preset-add"
          >
            <Trans>Add preset</Trans>
          </button>
        )}
      </header>
      <p className="muted small">
        <Trans>
          Offered first when someone is added to a server. Giving a preset copies its permissions: changing it
          later changes no one's.
        </Trans>
      </p>
      {editing === "new" && (
        <ScopeSetForm
          alwaysOn={alwaysGranted}
          onSave={(set) => save("new", set)}
          onCancel={() => setEditing(undefined)}
          testId="preset-form"
        />
      )}
      {!presets ? (
        <Spinner />
      ) : (
        <ul className="access-list">
          {presets.map((preset) => {
            const text = builtInPresetText(preset.id);
            return editing === preset.id ? (
              <li key={preset.id} className="access-item">
                <ScopeSetForm
                  initial={preset}
                  alwaysOn={alwaysGranted}
                  onSave={(set) => save(preset.id, set)}
                  onCancel={() => setEditing(undefined)}
                  testId="preset-form"
                />
              </li>
            ) : (
              <li key={preset.id} className="access-item" data-testid="preset" data-preset={preset.id}>
                <div className="access-item-main">
                  <strong>{text ? i18n._(text.name) : preset.name}</strong>
                  <span className="muted small">
                    {text ? `${i18n._(text.gives)} · ` : null}
                    <Trans>Permissions: {preset.scopes.length}</Trans>
                  </span>
                </div>
                {preset.builtIn ? (
                  <span className="tag">
                    <Trans>Built in</Trans>
                  </span>
                ) : (
                  <div className="access-actions">
                    <button
                      type="button"
                      className="btn btn-outline btn-small"
                      onClick={() => setEditing(preset.id)}
                    >
                      <Trans>Edit</Trans>
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline btn-small color-error"
                      onClick={() => void remove(preset)}
                      data-testid="preset-delete"
                    >
                      <Trans>Delete</Trans>
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
