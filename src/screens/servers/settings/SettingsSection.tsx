import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import type { VariableValue } from "../../../../server/templates/index.ts";
import {
  getData,
  getFlags,
  renameServer,
  type Server,
  type ServerData,
  type ServerFlags,
  saveData,
  setFlags,
} from "../../../api/servers";
import { useDraft } from "../../../app/useDraft";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { Switch } from "../../../components/Switch";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import type { SectionProps } from "../sectionProps";
import { useTemplateKit } from "../templateKit";
import { VariablesForm } from "../VariablesForm";
import { checkValues, shownGroups, type Values } from "../variables";
import { WatchdogField } from "./WatchdogField";

function Rename({ server, onRenamed }: { server: Server; onRenamed: (name: string) => void }) {
  const [name, setName] = useState(server.name);
  const [saving, setSaving] = useState(false);
  const trimmed = name.trim();
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed || trimmed === server.name) return;
    setSaving(true);
    try {
      await renameServer(server.id, trimmed);
      onRenamed(trimmed);
      toastSuccess(t`Server renamed`);
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="settings-block rename" onSubmit={save}>
      <h2 className="small-title">
        <Trans>Name</Trans>
      </h2>
      <div className="inline-form">
        <TextField label={t`Server name`} value={name} onValue={setName} maxLength={100} autoComplete="off" />
        <button type="submit" className="btn" disabled={saving || !trimmed || trimmed === server.name}>
          <Trans>Rename</Trans>
        </button>
      </div>
    </form>
  );
}

/** The flags shown as switches (the hang watchdog's count is a number of its own). */
type SwitchFlag = Exclude<keyof ServerFlags, "unresponsiveRestartAfter">;

function Flags({ id, canEdit }: { id: string; canEdit: boolean }) {
  const { data: flags, setData: setLocal } = useLoad(() => getFlags(id), [id]);
  const toggle = async (key: SwitchFlag, value: boolean) => {
    if (!flags) return;
    const before = flags;
    setLocal({ ...flags, [key]: value });
    try {
      await setFlags(id, { [key]: value });
    } catch {
      setLocal(before);
    }
  };
  const rows: [SwitchFlag, string, string][] = [
    ["autoStart", t`Start with the node`, t`Starts the server when its node starts.`],
    ["autoRestartOnCrash", t`Restart after a crash`, t`Up to the node's crash limit in a row.`],
    [
      "autoRestartOnGraceful",
      t`Restart after a normal exit`,
      t`Starts it again whenever it stops by itself.`,
    ],
  ];
  return (
    <section className="settings-block">
      <h2 className="small-title">
        <Trans>Start and restart</Trans>
      </h2>
      {!flags ? (
        <Spinner />
      ) : (
        <div className="flag-list" data-testid="server-flags">
          {rows.map(([key, label, hint]) => (
            <Switch
              key={key}
              label={label}
              hint={hint}
              checked={flags[key]}
              disabled={!canEdit}
              onChange={(v) => void toggle(key, v)}
            />
          ))}
          <WatchdogField
            id={id}
            current={flags.unresponsiveRestartAfter ?? 0}
            canEdit={canEdit}
            onSaved={(count) => setLocal({ ...flags, unresponsiveRestartAfter: count })}
          />
        </div>
      )}
    </section>
  );
}

const loadedValues = (d: ServerData): Values =>
  Object.fromEntries(Object.entries(d.data).map(([k, v]) => [k, v.value]));

function Variables({ id, canEdit, asAdmin }: { id: string; canEdit: boolean; asAdmin: boolean }) {
  const kit = useTemplateKit();
  const { data } = useLoad(() => getData(id), [id]);
  const [values, setValues] = useDraft(data ? loadedValues(data) : {}, data);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);

  if (!data || !kit) return <Spinner />;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    // The server's environment is not known here: conditions on `env` show their group.
    const names = shownGroups(kit, data.data, data.groups, values, undefined).flatMap((g) => g.names);
    const checked = checkValues(kit, data.data, values, names, data.rules);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length) return;
    setSaving(true);
    try {
      await saveData(id, checked.values, asAdmin);
      setDirty(false);
      toastSuccess(t`Settings saved`);
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };

  const change = (name: string, value: VariableValue) => {
    setValues({ ...values, [name]: value });
    setDirty(true);
  };

  return (
    <form className="settings-block" onSubmit={save} noValidate>
      <h2 className="small-title">
        <Trans>Variables</Trans>
      </h2>
      <VariablesForm
        kit={kit}
        data={data.data}
        groups={data.groups}
        values={values}
        env={undefined}
        errors={errors}
        disabled={!canEdit}
        onChange={change}
      />
      {canEdit && (
        <div className="form-end">
          <button type="submit" className="btn" disabled={saving || !dirty} data-testid="save-variables">
            <Trans>Save</Trans>
          </button>
        </div>
      )}
    </form>
  );
}

/** Server settings (spec §2.3): name, start/restart flags, variables. */
export default function SettingsSection({ server, can, onChanged }: SectionProps) {
  const asAdmin = can("server.data.edit.admin");
  return (
    <div className="settings-section">
      {can("server.name.edit") && <Rename server={server} onRenamed={(name) => onChanged({ name })} />}
      {can("server.flags.view") && <Flags id={server.id} canEdit={can("server.flags.edit")} />}
      {can("server.data.view") && (
        <Variables id={server.id} canEdit={asAdmin || can("server.data.edit")} asAdmin={asAdmin} />
      )}
    </div>
  );
}
