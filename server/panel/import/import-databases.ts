import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";

/**
 * The source's database hosts and its servers' databases: the hosts' and the databases' passwords
 * are Laravel-encrypted there, so both need the APP_KEY. A database is recorded as it is on its
 * host (the server's configuration names it): nothing is made or changed on the host.
 */
export async function importDatabaseHosts(run: PanelImport): Promise<void> {
  for (const host of run.source.databaseHosts) {
    const label = `database host ${host.name} (${host.host}:${host.port})`;
    const before = run.earlier("database_host", host.id);
    if (before) {
      run.hosts.set(host.id, Number(before));
      run.line("kept", `${label}: imported before (host ${before})`);
      continue;
    }
    if (!run.canDecrypt) {
      run.line("skipped", `${label}: its password is encrypted with the panel's APP_KEY (give --app-key)`);
      continue;
    }
    if (host.type === "other") {
      run.line("skipped", `${label}: not a MySQL/MariaDB or PostgreSQL host`);
      continue;
    }
    // Its nodes here; with --node every source node is that one, so the list folds up.
    const nodes = [...new Set(host.nodeIds.map((id) => run.nodes.get(id)).filter((id) => id !== undefined))];
    if (!run.options.apply) {
      run.hosts.set(host.id, -host.id);
      run.line("created", label);
      continue;
    }
    try {
      const made = await run.services.databaseHosts.create({
        name: host.name,
        type: host.type,
        host: host.host,
        port: host.port,
        username: host.username,
        password: run.decrypt(host.password) as string,
        nodes: nodes.length ? nodes : null,
        maxDatabases: host.maxDatabases,
      });
      run.hosts.set(host.id, made.id);
      await run.record("database_host", host.id, made.id);
      run.line("created", `${label} as host ${made.id}`);
    } catch (err) {
      run.line("skipped", `${label}: ${errorText(err)}`);
    }
  }
}

export async function importDatabases(run: PanelImport): Promise<void> {
  for (const database of run.source.databases) {
    const server = run.servers.get(database.serverId);
    const host = run.hosts.get(database.hostId);
    const label = `database ${database.name} of ${server ?? database.serverId}`;
    if (!server || host === undefined) {
      run.line("skipped", `${label}: its ${server ? "host" : "server"} was not brought over`);
      continue;
    }
    if (run.earlier("database", database.id)) {
      run.line("kept", `${label}: imported before`);
      continue;
    }
    if (!run.options.apply) {
      run.line("created", `${label} (user ${database.username}, password kept)`);
      continue;
    }
    try {
      const id = await run.services.serverDatabases.adopt(server, host, {
        database: database.name,
        username: database.username,
        password: run.decrypt(database.password) as string,
      });
      await run.record("database", database.id, id);
      run.line("created", `${label} (user ${database.username}, password kept)`);
    } catch (err) {
      run.line("skipped", `${label}: ${errorText(err)}`);
    }
  }
}
