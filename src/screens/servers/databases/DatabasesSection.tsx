import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import {
  createServerDatabase,
  deleteServerDatabase,
  listServerDatabases,
  rotateDatabasePassword,
  type ServerDatabase,
  type ServerDatabases,
} from "../../../api/databases";
import { CopyField } from "../../../components/CopyField";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import type { SectionProps } from "../sectionProps";
import { Select } from "../tasks/SelectField";
import "../../../components/controls.css";
import "./databases.css";
import { changeAndReload } from "../changeAndReload";

const namePattern = /^[A-Za-z0-9_]{1,48}$/;

function CreateForm({
  serverId,
  hosts,
  onCreated,
}: {
  serverId: string;
  hosts: ServerDatabases["hosts"];
  onCreated: () => Promise<void>;
}) {
  const [name, setName] = useState("");
  const [host, setHost] = useState(String(hosts[0]?.id ?? ""));
  const [sending, setSending] = useState(false);
  const valid = namePattern.test(name);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setSending(true);
    try {
      await createServerDatabase(serverId, { name, ...(host ? { host: Number(host) } : {}) });
      toastSuccess(t`Database created`);
      setName("");
    } catch {
      // the global handler said why (the limit, a host that cannot be reached)
    } finally {
      setSending(false);
    }
    await onCreated().catch(() => {});
  };
  return (
    <form className="inline-form db-create" onSubmit={submit} data-testid="database-create">
      <TextField
        label={t`Database name`}
        value={name}
        onValue={setName}
        maxLength={48}
        autoComplete="off"
        hint={t`Letters, digits and _; the panel puts s${serverId}_ in front.`}
        invalid={name !== "" && !valid}
        required
      />
      {hosts.length > 1 && (
        <Select
          label={t`Host`}
          value={host}
          onValue={setHost}
          options={hosts.map((h) => ({ value: String(h.id), label: `${h.name} (${typeLabel(h.type)})` }))}
        />
      )}
      <button type="submit" className="btn" disabled={sending || !valid}>
        <Trans>Create database</Trans>
      </button>
    </form>
  );
}

const typeLabel = (type: string) => (type === "postgres" ? "PostgreSQL" : "MySQL");

function DatabaseEntry({
  database,
  canRotate,
  canDelete,
  busy,
  onRotate,
  onDelete,
}: {
  database: ServerDatabase;
  canRotate: boolean;
  canDelete: boolean;
  busy: boolean;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const ready = database.state === "ready";
  return (
    <li className="db-item" data-testid="database-item" data-state={database.state}>
      <div className="db-title">
        <strong className="db-name">{database.name}</strong>
        <span className="tag">{typeLabel(database.host.type)}</span>
        {!ready && (
          <span className="tag db-incomplete">
            <Trans>Not finished: delete it and create it again</Trans>
          </span>
        )}
      </div>
      <dl className="db-facts small">
        <dt>
          <Trans>Host</Trans>
        </dt>
        <dd>
          {database.host.name} · {database.host.address}:{database.host.port}
        </dd>
        <dt>
          <Trans>User</Trans>
        </dt>
        <dd data-testid="database-user">{database.username}</dd>
      </dl>
      {ready && (
        <div className="db-fields">
          {database.password !== undefined && (
            <CopyField label={t`Password`} value={database.password} testId="database-password" />
          )}
          <CopyField label={t`JDBC URL (Minecraft plugins)`} value={database.jdbc} testId="database-jdbc" />
          <CopyField label={t`Connection string`} value={database.url} testId="database-url" />
        </div>
      )}
      <div className="db-actions">
        {ready && canRotate && (
          <button
            type="button"
            className="btn btn-outline btn-small"
            disabled={busy}
            onClick={onRotate}
            data-testid="database-rotate"
          >
            <Trans>New password</Trans>
          </button>
        )}
        {canDelete && (
          <button
            type="button"
            className="btn btn-outline btn-small color-error"
            disabled={busy}
            onClick={onDelete}
            data-testid="database-delete"
          >
            <Trans>Delete</Trans>
          </button>
        )}
      </div>
    </li>
  );
}

/** A server's databases (issue 36): list with connection strings, create within the limit, new password, delete. */
export default function DatabasesSection({ server, can, active }: SectionProps) {
  const [list, setList] = useState<ServerDatabases>();
  const [working, setWorking] = useState<number>();
  const id = server.id;

  const load = useCallback(async () => {
    setList(await listServerDatabases(id));
  }, [id]);

  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  const act = (database: ServerDatabase, work: () => Promise<unknown>, done: string) =>
    changeAndReload(work, done, load, (busy) => setWorking(busy ? database.id : undefined));

  const rotate = async (database: ServerDatabase) => {
    const yes = await confirmAsync({
      title: t`New password for ${database.name}?`,
      body: t`The old password stops working at once: change it wherever the server uses it.`,
      confirm: { text: t`New password` },
      cancel: { color: "neutral" },
    });
    if (yes) await act(database, () => rotateDatabasePassword(id, database.id), t`Password changed`);
  };

  const remove = async (database: ServerDatabase) => {
    const yes = await confirmAsync({
      title: t`Delete ${database.name}?`,
      body: t`The database, its tables and its user are dropped on the host for good.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (yes) await act(database, () => deleteServerDatabase(id, database.id), t`Database deleted`);
  };

  if (!list) return <Spinner />;
  const count = list.databases.length;
  const limit = list.limit;
  const room = count < limit;
  return (
    <div className="db-section" data-testid="databases">
      <p className="muted small" data-testid="database-count">
        <Trans>
          Databases: {count} of {limit}
        </Trans>
      </p>
      {can("server.databases.create") &&
        (list.limit === 0 ? (
          <p className="muted">
            <Trans>This server may not have databases yet: an administrator sets how many it may have.</Trans>
          </p>
        ) : !room ? null : list.hosts.length === 0 ? (
          <p className="muted">
            <Trans>No database host serves this server's node yet.</Trans>
          </p>
        ) : (
          <CreateForm serverId={id} hosts={list.hosts} onCreated={load} />
        ))}
      {list.databases.length === 0 ? (
        <p className="muted db-empty">
          <Trans>No databases yet.</Trans>
        </p>
      ) : (
        <ul className="db-list">
          {list.databases.map((database) => (
            <DatabaseEntry
              key={database.id}
              database={database}
              canRotate={can("server.databases.rotate")}
              canDelete={can("server.databases.delete")}
              busy={working !== undefined}
              onRotate={() => void rotate(database)}
              onDelete={() => void remove(database)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
