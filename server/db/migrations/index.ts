import type { MigrationProvider } from "kysely";
import type { Dialect } from "../database.ts";
import { accounts } from "./0001-accounts.ts";
import { nodesAndServers } from "./0002-nodes-and-servers.ts";
import { templates } from "./0003-templates.ts";
import { backups } from "./0004-backups.ts";
import { twoFactor } from "./0005-two-factor.ts";
import { serversNameId } from "./0006-servers-name-id.ts";
import { sealedNodeSecrets } from "./0007-sealed-node-secrets.ts";
import { serverCreations } from "./0008-server-creations.ts";
import { writeNotifications } from "./0009-write-notifications.ts";
import { templateAuthors } from "./0010-template-authors.ts";
import { activity } from "./0011-activity.ts";
import { notifications } from "./0012-notifications.ts";
import { sharedLimits } from "./0013-shared-limits.ts";
import { backupTargets } from "./0014-backup-targets.ts";
import { serverTransfers } from "./0015-server-transfers.ts";
import { serverHostingLimits } from "./0016-server-hosting-limits.ts";
import { databases } from "./0024-databases.ts";
import { allocations } from "./0025-allocations.ts";
import { rolesAndPresets } from "./0026-roles-and-presets.ts";
import { signInMethods } from "./0027-sign-in-methods.ts";
import { imports } from "./0028-imports.ts";
import { backupFacts } from "./0029-backup-facts.ts";
import { oidcTrustEmail } from "./0032-oidc-trust-email.ts";

/**
 * One set of migrations for SQLite and PostgreSQL, one file each, in the order they run. The
 * migrator runs them in the order of their names and records each name as run: a name must never
 * change. Never edit a migration that has shipped: add a new one, and list it last here.
 */
export function migrations(dialect: Dialect): MigrationProvider {
  const list = {
    "0001_accounts": accounts(dialect),
    "0002_nodes_and_servers": nodesAndServers(dialect),
    "0003_templates": templates(dialect),
    "0004_backups": backups(dialect),
    "0005_two_factor": twoFactor,
    "0006_servers_name_id": serversNameId,
    "0007_sealed_node_secrets": sealedNodeSecrets(dialect),
    "0008_server_creations": serverCreations,
    "0009_write_notifications": writeNotifications(dialect),
    "0010_template_authors": templateAuthors,
    "0011_activity": activity(dialect),
    "0012_notifications": notifications(dialect),
    "0013_shared_limits": sharedLimits,
    "0014_backup_targets": backupTargets,
    "0015_server_transfers": serverTransfers,
    "0016_server_hosting_limits": serverHostingLimits,
    "0024_databases": databases(dialect),
    "0025_allocations": allocations(dialect),
    "0026_roles_and_presets": rolesAndPresets(dialect),
    "0027_sign_in_methods": signInMethods(dialect),
    "0028_imports": imports,
    "0029_backup_facts": backupFacts,
    "0032_oidc_trust_email": oidcTrustEmail,
  };
  return { getMigrations: async () => list };
}
