import type { DatabaseType } from "../../contract/api/databases.ts";
import type { DatabaseEngine, HostAccess } from "./engine.ts";
import { MysqlEngine } from "./mysql-engine.ts";
import { PostgresEngine } from "./postgres-engine.ts";

export function engineFor(type: DatabaseType, access: HostAccess): DatabaseEngine {
  return type === "postgres" ? new PostgresEngine(access) : new MysqlEngine(access);
}
