import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import {
  createPermissionPreset,
  deletePermissionPreset,
  listPermissionPresets,
  updatePermissionPreset,
} from "../../api/permissionPresets";
import { useLoad } from "../../app/useLoad";
import { Spinner } from "../../components/Spinner";
import { builtInPresetText } from "../servers/scopes/presetLabels";
import { alwaysGranted } from "../servers/scopes/scopeLabels";
import { ScopeSetForm } from "./ScopeSetForm";
import { EditDeleteButtons, useScopeSetList } from "./scopeSetList";

/** Presets of server scopes: the built-in four to read, administrators' own to add, change and delete. */
export function PresetsSection() {
  const { i18n } = useLingui();
  const { data: presets, reload } = useLoad((signal) => listPermissionPresets({ signal }), []);
  const { editing, setEditing, save, remove } = useScopeSetList<string>({
    create: createPermissionPreset,
    update: updatePermissionPreset,
    delete: deletePermissionPreset,
    reload,
    saved: (name) => t`Preset ${name} saved`,
    deleting: (name) => ({
      title: t`Delete the preset ${name}?`,
      body: t`Users given it keep their permissions; it is no longer offered.`,
    }),
  });

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
                  <EditDeleteButtons
                    onEdit={() => setEditing(preset.id)}
                    onDelete={() => void remove(preset)}
                    deleteTestId="preset-delete"
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
