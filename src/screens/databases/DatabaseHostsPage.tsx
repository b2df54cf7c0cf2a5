import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import {
  createDatabaseHost,
  type DatabaseHost,
  type DatabaseHostInput,
  deleteDatabaseHost,
  listDatabaseHosts,
  testDatabaseHost,
  updateDatabaseHost,
} from "../../api/databases";
import { listNodes } from "../../api/nodes";
import { confirmAsync } from "../../components/confirmStore";
import { NotPermitted } from "../../components/NotPermitted";
import { Spinner } from "../../components/Spinner";
import { toastSuccess } from "../../components/toastStore";
import { hasScope } from "../../state/scopes";
import { HostForm } from "./HostForm";
import "../../components/controls.css";
import "../../components/screen-head.css";
import "../servers/databases/databases.css";

const typeLabel = (type: string) => (type === "postgres" ? "PostgreSQL" : "MySQL / MariaDB");

/** Database hosts (issue 36), for administrators: add, change, test and remove. */
export default function DatabaseHostsPage() {
  const [hosts, setHosts] = useState<DatabaseHost[]>();
  const [editing, setEditing] = useState<number | "new">();
  const [busy, setBusy] = useState<number>();
  const [nodes, setNodes] = useState<{ id: number; name: string }[]>([]);
  const allowed = hasScope("admin");

  const load = useCallback(async () => setHosts(await listDatabaseHosts()), []);
  useEffect(() => {
    if (!allowed) return;
    void load().catch(() => {});
    void listNodes({ exempt: true })
      .then((list) => setNodes(list.map((n) => ({ id: n.id, name: n.name }))))
      .catch(() => {});
  }, [allowed, load]);
  const nodeName = (id: number) => nodes.find((n) => n.id === id)?.name ?? String(id);
  if (!allowed) return <NotPermitted />;

  const save = async (id: number | "new", body: DatabaseHostInput) => {
    try {
      if (id === "new") await createDatabaseHost(body);
      else await updateDatabaseHost(id, body);
      toastSuccess(t`Database host saved`);
      setEditing(undefined);
    } catch {
      // the global handler said why
    }
    await load().catch(() => {});
  };
  const test = async (host: DatabaseHost) => {
    setBusy(host.id);
    try {
      const { version } = await testDatabaseHost(host.id);
      const name = host.name;
      toastSuccess(t`${name} answers: ${version}`);
    } catch {
      // the global handler said what failed: refused, password, no answer
    } finally {
      setBusy(undefined);
    }
  };
  const remove = async (host: DatabaseHost) => {
    const count = host.databases;
    // A host holding databases is removed only when it is gone for good: the servers' delete
    // button drops each database properly while the host answers.
    const forget = count > 0;
    const yes = await confirmAsync({
      title: t`Remove ${host.name}?`,
      body: forget
        ? t`Databases of servers on this host: ${count}. Remove it only if the host is gone for good: the panel forgets its databases without dropping them, and their servers can then be deleted. While the host answers, delete the databases from their servers instead.`
        : t`The panel forgets this host.`,
      confirm: { text: forget ? t`Forget host and its databases` : t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deleteDatabaseHost(host.id, { forget });
    } catch {
      // the global handler said why
    }
    await load().catch(() => {});
  };

  return (
    <section className="panel dbh-screen" data-testid="database-hosts">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Database hosts</Trans>
        </h1>
        {editing === undefined && (
          <button
            type="button"
            className="btn"
            onClick={() => setEditing("new")}
            data-testid="database-host-add"
          >
            <Trans>Add host</Trans>
          </button>
        )}
      </header>
      <p className="muted small">
        <Trans>
          MySQL, MariaDB or PostgreSQL servers where the panel makes databases for game servers, each with a
          user that may use only its own.
        </Trans>
      </p>
      {editing === "new" && (
        <HostForm
          nodeChoices={nodes}
          onSave={(body) => save("new", body)}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {!hosts ? (
        <Spinner />
      ) : hosts.length === 0 ? (
        <p className="muted db-empty">
          <Trans>No database hosts yet.</Trans>
        </p>
      ) : (
        <ul className="db-list">
          {hosts.map((host) =>
            editing === host.id ? (
              <li key={host.id} className="db-item">
                <HostForm
                  host={host}
                  nodeChoices={nodes}
                  onSave={(body) => save(host.id, body)}
                  onCancel={() => setEditing(undefined)}
                />
              </li>
            ) : (
              <li key={host.id} className="db-item" data-testid="database-host">
                <div className="db-title">
                  <strong className="db-name">{host.name}</strong>
                  <span className="tag">{typeLabel(host.type)}</span>
                </div>
                <dl className="db-facts small">
                  <dt>
                    <Trans>Address</Trans>
                  </dt>
                  <dd>
                    {host.host}:{host.port}
                  </dd>
                  <dt>
                    <Trans>User</Trans>
                  </dt>
                  <dd>{host.username}</dd>
                  <dt>
                    <Trans>Databases</Trans>
                  </dt>
                  <dd data-testid="database-host-count">
                    {host.maxDatabases === null ? host.databases : `${host.databases} / ${host.maxDatabases}`}
                  </dd>
                  <dt>
                    <Trans>Nodes</Trans>
                  </dt>
                  <dd>{host.nodes === null ? t`Every node` : host.nodes.map(nodeName).join(", ")}</dd>
                </dl>
                <div className="db-actions">
                  <button
                    type="button"
                    className="btn btn-outline btn-small"
                    disabled={busy === host.id}
                    onClick={() => void test(host)}
                    data-testid="database-host-test"
                  >
                    <Trans>Test connection</Trans>
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-small"
                    onClick={() => setEditing(host.id)}
                  >
                    <Trans>Edit</Trans>
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-small color-error"
                    onClick={() => void remove(host)}
                    data-testid="database-host-delete"
                  >
                    <Trans>Remove</Trans>
                  </button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
