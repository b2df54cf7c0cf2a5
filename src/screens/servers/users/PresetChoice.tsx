import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import type { PermissionPresetView } from "../../../api/permissionPresets";
import { builtInPresetText } from "../scopes/presetLabels";

/** "custom": the full picker instead of a preset. */
export const customChoice = "custom";

/** The presets as one choice, the built-in ones first, then "Custom" (the full picker). */
export function PresetChoice({
  presets,
  value,
  onChange,
}: {
  presets: readonly PermissionPresetView[];
  value: string;
  onChange: (id: string) => void;
}) {
  const { i18n } = useLingui();
  return (
    <fieldset className="preset-choice" data-testid="preset-choice">
      <legend className="small-title">
        <Trans>Permissions</Trans>
      </legend>
      <div className="preset-options">
        {presets.map((preset) => {
          const text = builtInPresetText(preset.id);
          return (
            <label key={preset.id} className="preset-option" data-preset={preset.id}>
              <input
                type="radio"
                name="preset"
                value={preset.id}
                checked={value === preset.id}
                onChange={() => onChange(preset.id)}
              />
              <span className="preset-option-text">
                <span className="preset-option-name">{text ? i18n._(text.name) : preset.name}</span>
                <span className="muted small">
                  {text ? i18n._(text.gives) : <Trans>Permissions: {preset.scopes.length}</Trans>}
                </span>
              </span>
            </label>
          );
        })}
        <label className="preset-option" data-preset={customChoice}>
          <input
            type="radio"
            name="preset"
            value={customChoice}
            checked={value === customChoice}
            onChange={() => onChange(customChoice)}
          />
          <span className="preset-option-text">
            <span className="preset-option-name">
              <Trans>Custom</Trans>
            </span>
            <span className="muted small">
              <Trans>Choose each permission</Trans>
            </span>
          </span>
        </label>
      </div>
    </fieldset>
  );
}
