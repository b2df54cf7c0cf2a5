import { type Selectable, sql } from "kysely";
import type { ActivityEntryView, ActivityQuery } from "../contract/api/activity.ts";
import type { Db } from "../db/database.ts";
import type { ActivityTable } from "../db/tables.ts";
import { likePattern, pageOf, pageSizeMax } from "./paging.ts";
import type { Settings } from "./settings.ts";

/**
 * Who did it: a user (a client's owner), an OAuth2 client, a task, an SFTP
 * user, or the panel itself (a task it disabled; userId is then whom it concerns).
 */
export interface ActivityActor {
  kind: "user" | "client" | "task" | "sftp" | "panel";
  userId?: number;
  /** A username; the name given at a failed sign-in; a task's name; the SFTP login name. */
  name: string;
  clientId?: string;
}

/** One change to record. Details must already be free of secrets (activity-details.ts). */
export interface ActivityRecord {
  actor: ActivityActor;
  address: string;
  action: string;
  ok: boolean;
  serverId?: string;
  subject?: string;
  details?: Record<string, unknown>;
  at?: number;
  /** A node's event id: the same event heard twice (or by several panels) is kept once. */
  eventId?: string;
}

export const retentionSetting = "panel.activity.retentionDays";
const dayMs = 24 * 60 * 60 * 1000;
/** Rows an export reads at a time: memory stays flat however long the log. */
const exportBatch = 500;

/** What the three lists filter by; `userId` is what /api/self/activity pins. */
export interface ActivityLogFilter extends Omit<ActivityQuery, "page" | "limit" | "format"> {
  userId?: number;
  serverId?: string;
}

/**
 * The activity log: who changed what, when and from where. Written at one
 * place per source (the API's route hook, activity-hook.ts; the nodes' own
 * events, node-activity.ts), read by administrators, a server's users with
 * `server.activity.view`, and each user for their own entries.
 *
 * Its writes do not tell other panels to drop their caches (write-notifications.ts):
 * nothing kept in memory is read from this table.
 */
export class Activity {
  constructor(
    private readonly db: Db,
    private readonly settings: Settings,
    private readonly warn: (msg: string) => void = (msg) => process.emitWarning(msg),
  ) {}

  /** Stores one entry; a failure is logged, never thrown at the change it describes. */
  async record(entry: ActivityRecord): Promise<void> {
    try {
      const actor = { ...entry.actor };
      // A name given at a failed sign-in (or by an SFTP client) is matched to its account, so the
      // owner sees attempts on their own account.
      if (actor.userId === undefined && actor.name && (actor.kind === "user" || actor.kind === "sftp"))
        actor.userId = await this.userIdOf(actor.name);
      const insert = this.db.insertInto("activity").values({
        at: entry.at ?? Date.now(),
        actor_kind: actor.kind,
        user_id: actor.userId ?? null,
        actor_name: actor.name.slice(0, 255),
        client_id: actor.clientId ?? null,
        address: entry.address.slice(0, 64),
        action: entry.action.slice(0, 64),
        ok: entry.ok ? 1 : 0,
        server_id: entry.serverId ?? null,
        subject: (entry.subject ?? "").slice(0, 4096),
        details: JSON.stringify(entry.details ?? {}),
        event_id: entry.eventId ?? null,
      });
      await (entry.eventId ? insert.onConflict((c) => c.column("event_id").doNothing()) : insert).execute();
    } catch (error) {
      this.warn(`activity not recorded (${entry.action}): ${(error as Error).message}`);
    }
  }

  private async userIdOf(name: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where((eb) => eb.or([eb("email", "=", name.toLowerCase()), eb("username", "=", name)]))
      .executeTakeFirst();
    return row?.id;
  }

  /** One page, newest first. */
  async list(filter: ActivityLogFilter, paging: { page?: number; limit?: number }) {
    const { page, pageSize, offset } = pageOf(paging);
    const [rows, count] = await Promise.all([
      this.filtered(filter)
        .selectAll("activity")
        // The server's name beside its id (null once the server is deleted): the log reads for people.
        .select((eb) =>
          eb
            .selectFrom("servers")
            .select("servers.name")
            .whereRef("servers.id", "=", "activity.server_id")
            .as("server_name"),
        )
        .orderBy("activity.id", "desc")
        .limit(pageSize)
        .offset(offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
    ]);
    const names = await this.subjectNames(rows.map((row) => row.subject));
    return {
      activity: rows.map((row) => ({
        ...toView(row),
        serverName: row.server_name ?? null,
        subjectName: names.get(row.subject) ?? null,
      })),
      paging: { page, pageSize, maxSize: pageSizeMax, total: Number(count.n) },
    };
  }

  /** The names of the users and nodes a page's entries are about (`user:3`, `node:2`), in two reads. */
  private async subjectNames(subjects: string[]): Promise<Map<string, string>> {
    const ids = (kind: string) => [
      ...new Set(
        subjects.flatMap((s) => {
          const m = /^(user|node):(\d{1,15})$/.exec(s);
          return m && m[1] === kind ? [Number(m[2])] : [];
        }),
      ),
    ];
    const users = ids("user");
    const nodes = ids("node");
    const [userRows, nodeRows] = await Promise.all([
      users.length
        ? this.db.selectFrom("users").select(["id", "username as name"]).where("id", "in", users).execute()
        : [],
      nodes.length
        ? this.db.selectFrom("nodes").select(["id", "name"]).where("id", "in", nodes).execute()
        : [],
    ]);
    return new Map([
      ...userRows.map((r) => [`user:${r.id}`, r.name] as const),
      ...nodeRows.map((r) => [`node:${r.id}`, r.name] as const),
    ]);
  }

  /** Every matching entry, newest first, read a batch at a time (for the exports). */
  async *all(filter: ActivityLogFilter): AsyncGenerator<ActivityEntryView> {
    let below: number | undefined;
    for (;;) {
      let query = this.filtered(filter).selectAll().orderBy("id", "desc").limit(exportBatch);
      if (below !== undefined) query = query.where("id", "<", below);
      const rows = await query.execute();
      for (const row of rows) yield toView(row);
      if (rows.length < exportBatch) return;
      below = rows[rows.length - 1].id;
    }
  }

  /** Removes what is older than the retention setting; answers how many entries went. */
  async removeExpired(now = Date.now()): Promise<number> {
    const days = Number(await this.settings.get(retentionSetting));
    const result = await this.db
      .deleteFrom("activity")
      .where("at", "<", now - days * dayMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private filtered(filter: ActivityLogFilter) {
    let query = this.db.selectFrom("activity");
    if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
    if (filter.serverId !== undefined) query = query.where("server_id", "=", filter.serverId);
    if (filter.user !== undefined) {
      const user = filter.user;
      query = /^\d+$/.test(user)
        ? query.where("user_id", "=", Number(user))
        : query.where("actor_name", "=", user);
    }
    if (filter.server !== undefined) query = query.where("server_id", "=", filter.server);
    if (filter.action !== undefined) {
      // `server.*` is every server action; otherwise the name exactly.
      query = filter.action.includes("*")
        ? query.where(sql<boolean>`action like ${likePattern(filter.action)} escape '\\'`)
        : query.where("action", "=", filter.action);
    }
    if (filter.since !== undefined) query = query.where("at", ">=", timeOf(filter.since));
    if (filter.until !== undefined) query = query.where("at", "<", timeOf(filter.until));
    if (filter.q !== undefined && filter.q !== "") {
      const like = `%${likePattern(filter.q)}%`;
      const columns = ["actor_name", "action", "subject", "server_id", "address"] as const;
      query = query.where((eb) =>
        eb.or(columns.map((c) => sql<boolean>`lower(coalesce(${sql.ref(c)}, '')) like ${like} escape '\\'`)),
      );
    }
    return query;
  }
}

/** A time filter: Unix milliseconds or an ISO date (the wire schema has checked the form). */
function timeOf(value: string): number {
  return /^\d+$/.test(value) ? Number(value) : Date.parse(value);
}

function toView(row: Selectable<ActivityTable>): ActivityEntryView {
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(row.details);
  } catch {
    // Written by us as JSON; a row edited by hand shows no details rather than failing the list.
  }
  return {
    id: row.id,
    time: new Date(Number(row.at)).toISOString(),
    actorKind: row.actor_kind,
    userId: row.user_id,
    actor: row.actor_name,
    clientId: row.client_id,
    address: row.address,
    action: row.action,
    ok: row.ok === 1,
    serverId: row.server_id,
    subject: row.subject,
    details,
  };
}
