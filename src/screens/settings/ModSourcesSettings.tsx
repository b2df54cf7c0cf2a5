import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useState } from "react";
import { getSettingAnswer, postSettings } from "../../api/settings";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { LoadFailed } from "../servers/LoadFailed";
import { sourceNames } from "../servers/mods/sourceNames";
import { SecretField } from "./SecretField";
import type { SecretEdit } from "./settingsForm";

// The sources the Mods section asks (issue 37): each one on or off and its API's address (a
// mirror, say), and CurseForge's API key, write-only. Loaded apart from the rest of the
// settings screen, and saved apart.

const sources = ["modrinth", "hangar", "curseforge"] as const;
type Source = (typeof sources)[number];
const KEY = "panel.mods.curseforgeKey";
const urlKey = (source: Source) => `panel.mods.${source}Url`;
const enabledKey = (source: Source) => `panel.mods.${source}Enabled`;

interface Saved {
  enabled: Record<Source, boolean>;
  url: Record<Source, string>;
  keySet: boolean;
}

async function loadSaved(): Promise<Saved> {
  const answers = await Promise.all(
    sources.flatMap((s) => [getSettingAnswer(enabledKey(s)), getSettingAnswer<string>(urlKey(s))]),
  );
  const key = await getSettingAnswer<string>(KEY);
  const of = <T,>(pick: (i: number) => T) =>
    Object.fromEntries(sources.map((s, i) => [s, pick(i)])) as Record<Source, T>;
  return {
    enabled: of((i) => answers[i * 2]?.value !== false),
    url: of((i) => String(answers[i * 2 + 1]?.value ?? "")),
    keySet: key?.isSet ?? Boolean(key?.value),
  };
}

export default function ModSourcesSettings() {
  const [saved, setSaved] = useState<Saved>();
  const [failed, setFailed] = useState(false);
  const [enabled, setEnabled] = useState<Record<Source, boolean>>();
  const [url, setUrl] = useState<Record<Source, string>>();
  const [key, setKey] = useState<SecretEdit>({ kind: "keep" });
  const [busy, setBusy] = useState(false);

  const load = async () => {
    setFailed(false);
    try {
      const values = await loadSaved();
      setSaved(values);
      setEnabled(values.enabled);
      setUrl(values.url);
      setKey({ kind: "keep" });
    } catch {
      setFailed(true);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the screen opens
  useEffect(() => {
    void load();
  }, []);

  const title = <Trans>Mod and plugin sources</Trans>;
  if (failed)
    return (
      <Panel title={title} className="self-section">
        <LoadFailed onRetry={() => void load()}>
          <Trans>The settings could not be loaded.</Trans>
        </LoadFailed>
      </Panel>
    );
  if (!saved || !enabled || !url) return <Spinner />;

  const diff: Record<string, string | boolean | null> = {};
  for (const s of sources) {
    if (enabled[s] !== saved.enabled[s]) diff[enabledKey(s)] = enabled[s];
    if (url[s] !== saved.url[s]) diff[urlKey(s)] = url[s];
  }
  if (key.kind === "replace" && key.value !== "") diff[KEY] = key.value;
  if (key.kind === "clear") diff[KEY] = null;
  const dirty = Object.keys(diff).length > 0;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || busy) return;
    setBusy(true);
    try {
      await postSettings(diff);
      toastSuccess(t`Settings saved`);
      await load();
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="self-page" onSubmit={save} data-testid="mod-sources-form">
      <Panel title={title} className="self-section">
        <div className="self-form">
          <p className="muted small">
            <Trans>
              What a server's Mods section may search and install from. A source's address may be a mirror's.
            </Trans>
          </p>
          {sources.map((s) => {
            const name = sourceNames[s];
            return (
              <fieldset key={s} className="mod-source" data-testid={`mod-source-${s}`}>
                <Switch
                  label={t`Offer ${name}`}
                  checked={enabled[s]}
                  onChange={(on) => setEnabled({ ...enabled, [s]: on })}
                />
                <TextField
                  label={t`${name} API address`}
                  type="url"
                  value={url[s]}
                  onValue={(value) => setUrl({ ...url, [s]: value })}
                  data-testid={`mod-source-${s}-url`}
                />
                {s === "curseforge" && (
                  <SecretField
                    label={t`CurseForge API key`}
                    isSet={saved.keySet}
                    edit={key}
                    onEdit={setKey}
                    testId="mod-source-curseforge-key"
                  />
                )}
                {s === "curseforge" && !saved.keySet && (
                  <p className="muted small">
                    <Trans>CurseForge is offered only once its API key is set.</Trans>
                  </p>
                )}
              </fieldset>
            );
          })}
        </div>
      </Panel>
      <div className="settings-save">
        <button type="submit" className="btn" disabled={!dirty || busy} data-testid="mod-sources-save">
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
}
