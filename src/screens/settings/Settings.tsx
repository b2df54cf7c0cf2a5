import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, lazy, Suspense, useEffect, useState } from "react";
import { loadConfig } from "../../api/config";
import { isApiError } from "../../api/errors";
import { getSettingAnswer, postSettings, testEmail } from "../../api/settings";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { config } from "../../state/config";
import { user } from "../../state/session";
import { LoadFailed } from "../servers/LoadFailed";
import { SelectField } from "../servers/VariablesForm";
import { SecretField } from "./SecretField";
import {
  changes,
  type FlagKey,
  flagKeys,
  PROVIDERS,
  REGISTRATION,
  type SecretEdit,
  type SecretKey,
  type SettingsValues,
  SFTP_PASSWORD_WITH_2FA,
  secretKeys,
  type TextKey,
  textKeys,
} from "./settingsForm";
import "../self/self.css";
import "./settings.css";

// The mod sources' settings are their own form and chunk: most panels never change them.
const ModSourcesSettings = lazy(() => import("./ModSourcesSettings"));

const keepAll = (): Record<SecretKey, SecretEdit> => ({ "panel.email.password": { kind: "keep" } });

async function loadValues(): Promise<SettingsValues> {
  const [texts, flags, secrets] = await Promise.all([
    Promise.all(textKeys.map((k) => getSettingAnswer<string>(k))),
    Promise.all(flagKeys.map((k) => getSettingAnswer<boolean>(k))),
    Promise.all(secretKeys.map((k) => getSettingAnswer<string>(k))),
  ]);
  return {
    text: Object.fromEntries(textKeys.map((k, i) => [k, String(texts[i]?.value ?? "")])) as Record<
      TextKey,
      string
    >,
    flags: Object.fromEntries(flagKeys.map((k, i) => [k, flags[i]?.value === true])) as Record<
      FlagKey,
      boolean
    >,
    // A panel that still answers the secret itself: only whether there is one is used.
    secretSet: Object.fromEntries(
      secretKeys.map((k, i) => [k, secrets[i]?.isSet ?? Boolean(secrets[i]?.value)]),
    ) as Record<SecretKey, boolean>,
  };
}

/** Panel settings (spec §2.1 Settings, reference §10.3): site, registration, e-mail and a test mail. */
export default function Settings() {
  const [saved, setSaved] = useState<SettingsValues>();
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState<Record<TextKey, string>>();
  const [flags, setFlags] = useState<Record<FlagKey, boolean>>({
    [REGISTRATION]: false,
    [SFTP_PASSWORD_WITH_2FA]: false,
  });
  const [secrets, setSecrets] = useState(keepAll);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string }>();

  const load = async () => {
    setFailed(false);
    try {
      const values = await loadValues();
      setSaved(values);
      setText(values.text);
      setFlags(values.flags);
      setSecrets(keepAll());
    } catch {
      setFailed(true);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the screen opens
  useEffect(() => {
    void load();
  }, []);

  if (failed) {
    return (
      <Panel title={<Trans>Settings</Trans>}>
        <LoadFailed onRetry={() => void load()}>
          <Trans>The settings could not be loaded.</Trans>
        </LoadFailed>
      </Panel>
    );
  }
  if (!saved || !text) return <Spinner />;

  const diff = changes(saved, text, flags, secrets);
  const flag = (key: FlagKey) => (on: boolean) => setFlags({ ...flags, [key]: on });
  const dirty = Object.keys(diff).length > 0;
  const provider = text["panel.email.provider"] || "none";
  const set = (key: TextKey) => (value: string) => setText({ ...text, [key]: value });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || busy) return;
    setBusy(true);
    try {
      await postSettings(diff);
      toastSuccess(t`Settings saved`);
      setTestResult(undefined);
      await load();
      config.value = await loadConfig();
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async () => {
    setTesting(true);
    setTestResult(undefined);
    try {
      await testEmail({ exempt: true });
      setTestResult({ ok: true, text: t`A test email was sent to ${user.value?.email ?? ""}.` });
    } catch (err) {
      const reason = isApiError(err) ? String(err.metadata?.reason ?? err.msg ?? err.message) : String(err);
      setTestResult({ ok: false, text: t`Not sent: ${reason}` });
    } finally {
      setTesting(false);
    }
  };

  const themes = [
    ...new Set(["Outpost", ...config.value.themes.available, text["panel.settings.defaultTheme"]]),
  ];

  return (
    <div className="settings-screen">
      <form className="self-page" onSubmit={save} data-testid="settings-form">
        <Panel title={<Trans>Site</Trans>} className="self-section">
          <div className="self-form">
            <TextField
              label={t`Company name`}
              value={text["panel.settings.companyName"]}
              onValue={set("panel.settings.companyName")}
              maxLength={100}
              required
              data-testid="setting-company"
            />
            <TextField
              label={t`Panel address (master URL)`}
              type="url"
              value={text["panel.settings.masterUrl"]}
              onValue={set("panel.settings.masterUrl")}
              hint={t`The address users and nodes reach the panel at; used in links in emails.`}
              data-testid="setting-master-url"
            />
            <SelectField
              name="default-theme"
              text={t`Default theme`}
              value={text["panel.settings.defaultTheme"]}
              options={themes.map((name) => ({ value: name, display: name }))}
              onValue={set("panel.settings.defaultTheme")}
            />
            <Switch
              label={t`Anyone may register an account`}
              checked={flags[REGISTRATION]}
              onChange={flag(REGISTRATION)}
              hint={t`New accounts can sign in and manage only what they are given.`}
            />
            <Switch
              label={t`SFTP takes the password of accounts with two-factor sign-in`}
              checked={flags[SFTP_PASSWORD_WITH_2FA]}
              onChange={flag(SFTP_PASSWORD_WITH_2FA)}
              hint={t`Off: such accounts use SFTP with an SSH key, as the password alone skips their second factor.`}
            />
          </div>
        </Panel>
        <Panel title={<Trans>Email</Trans>} className="self-section">
          <div className="self-form">
            <SelectField
              name="email-provider"
              text={t`Provider`}
              value={provider}
              options={PROVIDERS.map((p) => ({
                value: p,
                display:
                  p === "none"
                    ? t`None (no emails)`
                    : p === "smtp"
                      ? t`SMTP server`
                      : t`Debug (write to the panel log)`,
              }))}
              onValue={set("panel.email.provider")}
            />
            {provider !== "none" && (
              <TextField
                label={t`Sender address`}
                type="email"
                value={text["panel.email.from"]}
                onValue={set("panel.email.from")}
                data-testid="setting-email-from"
              />
            )}
            {provider === "smtp" && (
              <>
                <TextField
                  label={t`SMTP server`}
                  value={text["panel.email.host"]}
                  onValue={set("panel.email.host")}
                  placeholder="mail.example.com:587"
                  hint={t`host or host:port; port 587 by default, 465 for TLS from the start.`}
                  data-testid="setting-email-host"
                />
                <TextField
                  label={t`SMTP username`}
                  value={text["panel.email.username"]}
                  onValue={set("panel.email.username")}
                  autoComplete="off"
                  data-testid="setting-email-username"
                />
                <SecretField
                  label={t`SMTP password`}
                  isSet={saved.secretSet["panel.email.password"]}
                  edit={secrets["panel.email.password"]}
                  onEdit={(edit) => setSecrets({ ...secrets, "panel.email.password": edit })}
                  testId="setting-email-password"
                />
              </>
            )}
            {provider !== "none" && (
              <div className="settings-test">
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={dirty || testing}
                  onClick={() => void sendTest()}
                  data-testid="send-test-email"
                >
                  <Trans>Send a test email</Trans>
                </button>
                {dirty && (
                  <span className="muted small">
                    <Trans>Save first.</Trans>
                  </span>
                )}
                {testResult && (
                  <p
                    className={testResult.ok ? "settings-test-ok" : "settings-test-failed"}
                    role="status"
                    data-testid="test-email-result"
                  >
                    {testResult.text}
                  </p>
                )}
              </div>
            )}
          </div>
        </Panel>
        <div className="settings-save">
          <button type="submit" className="btn" disabled={!dirty || busy} data-testid="settings-save">
            <Trans>Save</Trans>
          </button>
        </div>
      </form>
      <Suspense fallback={<Spinner />}>
        <ModSourcesSettings />
      </Suspense>
    </div>
  );
}
