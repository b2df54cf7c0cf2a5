import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import { setMini, sidebarMini } from "../../app/sidebarState";
import { ListTypeToggle } from "../../components/ListTypeToggle";
import { Panel } from "../../components/Panel";
import { Switch } from "../../components/Switch";
import { chooseLocale, supportedLocales } from "../../i18n/activate";
import { localeLabel } from "../../i18n/localeNames";
import {
  DEFAULT_PRIMARY,
  FONT_FACES,
  FONT_SIZES,
  type FontFace,
  SERVER_TYPE_DISPLAYS,
  type ServerTypeDisplay,
  THEME_MODES,
  type ThemeMode,
  themeSettings,
  updateThemeSettings,
} from "../../state/theme";
import { activeTheme, availableThemes, chooseTheme } from "../../theme/themeChoice";
import { SelectField } from "../servers/VariablesForm";

const sizeName = (px: number) => (px === 0 ? "100 %" : `${px > 0 ? "+" : "−"}${Math.abs(px)} px`);

/** The primary colour, with a way back to the default. */
function ColorField() {
  const id = useId();
  const color = themeSettings.value.color;
  return (
    <div className="field">
      <label htmlFor={id}>{t`Primary colour`}</label>
      <div className="pref-row pref-color">
        <input
          id={id}
          type="color"
          name="theme-color"
          value={color}
          onChange={(e) => updateThemeSettings({ color: e.currentTarget.value })}
        />
        <code dir="ltr">{color}</code>
        {color !== DEFAULT_PRIMARY && (
          <button
            type="button"
            className="btn"
            onClick={() => updateThemeSettings({ color: DEFAULT_PRIMARY })}
          >
            <Trans>Default</Trans>
          </button>
        )}
      </div>
    </div>
  );
}

/** Theme, list type, sidebar and language: saved on the panel, so they follow the user (spec §7). */
export function PreferencesSection() {
  const { i18n } = useLingui();
  const settings = themeSettings.value;
  const modeNames: Record<ThemeMode, string> = {
    auto: t`Like the device`,
    light: t`Light`,
    dark: t`Dark`,
    "dark-hc": t`Dark, high contrast`,
  };
  const faceNames: Record<FontFace, string> = { default: t`Default`, accessible: t`Easier to read` };
  const typeNames: Record<ServerTypeDisplay, string> = { icon: t`Type icon`, none: t`None` };
  return (
    <Panel title={<Trans>Preferences</Trans>} className="self-section">
      <div className="self-form" data-testid="preferences">
        <SelectField
          name="locale"
          text={t`Language`}
          value={i18n.locale}
          options={supportedLocales.map((l) => ({ value: l, display: localeLabel(l) }))}
          onValue={(v) => void chooseLocale(v)}
        />
        <SelectField
          name="theme"
          text={t`Style`}
          value={activeTheme.value}
          options={availableThemes.value.map((name) => ({ value: name, display: name }))}
          onValue={chooseTheme}
        />
        <SelectField
          name="theme-mode"
          text={t`Theme`}
          value={settings.mode}
          options={THEME_MODES.map((m) => ({ value: m, display: modeNames[m] }))}
          onValue={(v) => updateThemeSettings({ mode: v as ThemeMode })}
        />
        <ColorField />
        <SelectField
          name="font-face"
          text={t`Font`}
          value={settings.fontFace}
          options={FONT_FACES.map((f) => ({ value: f, display: faceNames[f] }))}
          onValue={(v) => updateThemeSettings({ fontFace: v as FontFace })}
        />
        <SelectField
          name="font-size"
          text={t`Text size`}
          value={String(settings.fontSize)}
          options={FONT_SIZES.map((px) => ({ value: String(px), display: sizeName(px) }))}
          onValue={(v) => updateThemeSettings({ fontSize: Number(v) })}
        />
        <SelectField
          name="server-type-display"
          text={t`Server icons`}
          value={settings.serverTypeDisplay}
          options={SERVER_TYPE_DISPLAYS.map((d) => ({ value: d, display: typeNames[d] }))}
          onValue={(v) => updateThemeSettings({ serverTypeDisplay: v as ServerTypeDisplay })}
        />
        <div className="pref-row">
          <span className="pref-label">
            <Trans>Lists</Trans>
          </span>
          <ListTypeToggle />
        </div>
        <Switch
          label={t`Narrow sidebar (icons only)`}
          checked={sidebarMini.value}
          onChange={(mini) => setMini(mini)}
        />
        <p className="muted small">
          <Trans>These choices are saved with your account and follow you to other devices.</Trans>
        </p>
      </div>
    </Panel>
  );
}
