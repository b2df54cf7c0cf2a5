import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import type { DatabaseHost, DatabaseHostInput } from "../../api/databases";
import { TextField } from "../../components/TextField";
import { Select } from "../servers/tasks/SelectField";

const defaultPort = { mysql: 3306, postgres: 5432 } as const;

/** Adds a host, or changes one: the password field stays empty unless it is to change. */
export function HostForm({
  host,
  nodeChoices,
  onSave,
  onCancel,
}: {
  host?: DatabaseHost;
  /** The panel's nodes, to tick those the host serves. */
  nodeChoices: { id: number; name: string }[];
  onSave: (body: DatabaseHostInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [type, setType] = useState<"mysql" | "postgres">(host?.type ?? "mysql");
  const [name, setName] = useState(host?.name ?? "");
  const [address, setAddress] = useState(host?.host ?? "");
  const [port, setPort] = useState(String(host?.port ?? defaultPort.mysql));
  const [username, setUsername] = useState(host?.username ?? "");
  const [password, setPassword] = useState("");
  const [nodeIds, setNodeIds] = useState<number[]>(host?.nodes ?? []);
  const [max, setMax] = useState(host?.maxDatabases === null || !host ? "" : String(host.maxDatabases));
  const [busy, setBusy] = useState(false);
  const valid =
    name.trim() !== "" &&
    address.trim() !== "" &&
    Number.isInteger(Number(port)) &&
    username !== "" &&
    (host !== undefined || password !== "") &&
    (max === "" || Number.isInteger(Number(max)));

  const changeType = (next: string) => {
    const value = next === "postgres" ? "postgres" : "mysql";
    if (port === String(defaultPort[type])) setPort(String(defaultPort[value]));
    setType(value);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    try {
      await onSave({
        name: name.trim(),
        type,
        host: address.trim(),
        port: Number(port),
        username,
        password,
        nodes: nodeIds.length > 0 ? nodeIds : null,
        maxDatabases: max === "" ? null : Number(max),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="dbh-form" onSubmit={submit} noValidate data-testid="database-host-form">
      <div className="dbh-pair">
        <TextField label={t`Name`} value={name} onValue={setName} maxLength={100} required />
        <Select
          label={t`Type`}
          value={type}
          onValue={changeType}
          options={[
            { value: "mysql", label: "MySQL / MariaDB" },
            { value: "postgres", label: "PostgreSQL" },
          ]}
        />
      </div>
      <div className="dbh-pair">
        <TextField
          label={t`Address`}
          value={address}
          onValue={setAddress}
          placeholder="10.0.0.20"
          hint={t`As game servers reach it: it goes into their connection strings.`}
          required
        />
        <TextField label={t`Port`} value={port} onValue={setPort} inputMode="numeric" required />
      </div>
      <div className="dbh-pair">
        <TextField
          label={t`User name`}
          value={username}
          onValue={setUsername}
          autoComplete="off"
          hint={t`An account that may create databases and users.`}
          required
        />
        <TextField
          label={host?.passwordSet ? t`Password (set; empty keeps it)` : t`Password`}
          type="password"
          value={password}
          onValue={setPassword}
          autoComplete="new-password"
          required={!host}
        />
      </div>
      <div className="dbh-pair">
        <fieldset className="dbh-nodes">
          <legend>
            <Trans>Nodes it serves</Trans>
          </legend>
          {nodeChoices.map((node) => (
            <label key={node.id} className="dbh-node">
              <input
                type="checkbox"
                checked={nodeIds.includes(node.id)}
                onChange={(e) =>
                  setNodeIds(
                    e.currentTarget.checked ? [...nodeIds, node.id] : nodeIds.filter((n) => n !== node.id),
                  )
                }
              />
              {node.name}
            </label>
          ))}
          <p className="field-hint">
            <Trans>None ticked: every node.</Trans>
          </p>
        </fieldset>
        <TextField
          label={t`Most databases`}
          value={max}
          onValue={setMax}
          inputMode="numeric"
          hint={t`Empty for no limit.`}
        />
      </div>
      <div className="dbh-form-actions">
        <button type="submit" className="btn" disabled={busy || !valid} data-testid="database-host-save">
          <Trans>Save</Trans>
        </button>
        <button type="button" className="btn btn-outline color-neutral" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}
