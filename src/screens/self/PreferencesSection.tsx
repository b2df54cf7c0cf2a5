import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { setMini, sidebarMini } from "../../app/sidebarState";
import { ListTypeToggle } from "../../components/ListTypeToggle";
import { Panel } from "../../components/Panel";
import { Switch } from "../../components/Switch";
import { chooseLocale, supportedLocales } from "../../i18n/activate";
import { toBcp47 } from "../../i18n/locales";
import { setThemeMode, THEME_MODES, type ThemeMode, themeMode } from "../../state/theme";
import { SelectField } from "../servers/VariablesForm";

/** A locale by its own name (spec §2.3: the picker lists locales in their own language). */
function ownName(locale: string): string {
  const tag = toBcp47(locale);
  try {
    return new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? locale;
  } catch {
    return locale;
  }
}

/** Theme, list type, sidebar and language: saved on the panel, so they follow the user (spec §7). */
export function PreferencesSection() {
  const { i18n } = useLingui();
  const modeNames: Record<ThemeMode, string> = {
    auto: t`Like the device`,
    light: t`Light`,
    dark: t`Dark`,
    "dark-hc": t`Dark, high contrast`,
  };
  return (
    <Panel title={<Trans>Preferences</Trans>} className="self-section">
      <div className="self-form" data-testid="preferences">
        <SelectField
          name="theme-mode"
          text={t`Theme`}
          value={themeMode.value}
          options={THEME_MODES.map((m) => ({ value: m, display: modeNames[m] }))}
          onValue={(v) => setThemeMode(v as ThemeMode)}
        />
        <SelectField
          name="locale"
          text={t`Language`}
          value={i18n.locale}
          options={supportedLocales.map((l) => ({ value: l, display: ownName(l) }))}
          onValue={(v) => void chooseLocale(v)}
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
