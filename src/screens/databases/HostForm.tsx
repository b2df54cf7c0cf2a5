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
  onSave,
  onCancel,
}: {
  host?: DatabaseHost;
  onSave: (body: DatabaseHostInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [type, setType] = useState<"mysql" | "postgres">(host?.type ?? "mysql");
  const [name, setName] = useState(host?.name ?? "");
  const [address, setAddress] = useState(host?.host ?? "");
  const [port, setPort] = useState(String(host?.port ?? defaultPort.mysql));
  const [username, setUsername] = useState(host?.username ?? "");
  const [password, setPassword] = useState("");
  const [nodes, setNodes] = useState(host?.nodes?.join(", ") ?? "");
  const [max, setMax] = useState(host?.maxDatabases === null || !host ? "" : String(host.maxDatabases));
  const [busy, setBusy] = useState(false);
  const nodeIds = nodes
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  const valid =
    name.trim() !== "" &&
    address.trim() !== "" &&
    Number.isInteger(Number(port)) &&
    username !== "" &&
    (host !== undefined || password !== "") &&
    nodeIds.every((n) => Number.isInteger(n) && n >= 0) &&
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
        <TextField
          label={t`Nodes it serves`}
          value={nodes}
          onValue={setNodes}
          placeholder="0, 2"
          hint={t`Node ids, separated by commas; empty for every node.`}
        />
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
