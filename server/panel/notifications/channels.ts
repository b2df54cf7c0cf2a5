import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import {
  type ChannelCreateBody,
  type ChannelCreated,
  type ChannelType,
  type ChannelView,
  channelTypes,
  type NotificationEvent,
  notificationEvents,
} from "../../contract/api/notifications.ts";
import { isDiscordHook } from "../../contract/discord-hook.ts";
import type { Db } from "../../db/database.ts";
import type { NotificationChannelTable } from "../../db/tables.ts";
import { ApiError } from "../../errors.ts";
import { checkedAddressOf } from "../../net/public-address.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";
import type { Permissions } from "../permissions.ts";

type Row = Selectable<NotificationChannelTable>;
export type ChannelRow = Row;

/** Channels one user may keep: enough for every device and a few hooks. */
export const channelsPerUser = 20;

/** A push subscription's keys as RFC 8291 needs them: P-256 public point and a 16-byte secret. */
const p256PointBytes = 65;
const authSecretBytes = 16;

const invalid = (field: string, problem: string) =>
  new ApiError(400, "ErrNotificationInvalid", "${field} ${problem}", { field, problem });

export const split = (text: string) => (text ? text.split(",") : []);

/** Who the owner of a channel is, for the rules that differ for administrators. */
export interface ChannelOwner {
  userId: number;
  admin: boolean;
}

/**
 * Each user's alert channels (issue 24): Web Push subscriptions, webhooks
 * and their own e-mail. A channel names the events it wants and, optionally,
 * servers, which must be ones its owner can see. Secrets (the webhook's URL
 * and HMAC key, the push subscription with its auth secret) are stored sealed.
 */
export class NotificationChannels {
  /** Called after any change, so the watcher of servers follows (alert-watch.ts). */
  onChange: () => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly box: SecretBox,
  ) {}

  async list(userId: number): Promise<ChannelView[]> {
    const rows = await this.db
      .selectFrom("notification_channels")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map((row) => this.view(row));
  }

  async create(owner: ChannelOwner, body: ChannelCreateBody): Promise<ChannelCreated> {
    const type = body.type as ChannelType;
    if (!channelTypes.includes(type)) throw invalid("type", `must be one of ${channelTypes.join(", ")}`);
    const events = [...new Set(body.events)];
    if (events.length === 0) throw invalid("events", "must name at least one event");
    for (const event of events)
      if (!notificationEvents.includes(event as NotificationEvent))
        throw new ApiError(400, "ErrUnknownEvent", "${event} is not an event: use one of ${events}", {
          event,
          events: notificationEvents.join(", "),
        });
    const servers = [...new Set(body.servers ?? [])];
    await this.assertVisible(owner, servers);
    let target = "";
    let secret = "";
    let shownSecret: string | undefined;
    if (type === "webhook") {
      // A Discord or Slack hook's URL is its credential: sealed like the signing secret.
      target = this.box.seal(await this.checkedUrl(owner, "url", body.url, false));
      shownSecret = randomBytes(32).toString("hex");
      secret = this.box.seal(shownSecret);
    } else if (type === "webpush") {
      const sub = body.subscription;
      if (!sub)
        throw new ApiError(400, "ErrFieldRequired", "${field} is required", { field: "subscription" });
      const endpoint = await this.checkedUrl(owner, "subscription.endpoint", sub.endpoint, true);
      if (decodedLength(sub.keys.p256dh) !== p256PointBytes)
        throw invalid("subscription.keys.p256dh", "must be a P-256 public key (65 bytes, base64url)");
      if (decodedLength(sub.keys.auth) !== authSecretBytes)
        throw invalid("subscription.keys.auth", "must be 16 bytes, base64url");
      target = this.box.seal(JSON.stringify({ endpoint, keys: sub.keys }));
    }
    const count = await this.db
      .selectFrom("notification_channels")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", owner.userId)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= channelsPerUser)
      throw new ApiError(409, "ErrTooManyChannels", "a user keeps at most ${max} notification channels", {
        max: channelsPerUser,
      });
    // The same browser subscribing again replaces its old channel rather than adding one.
    if (type === "webpush") await this.dropEndpoint(owner.userId, body.subscription?.endpoint ?? "");
    const fields = {
      user_id: owner.userId,
      type,
      events: events.join(","),
      servers: servers.join(","),
      target,
      secret,
      created_at: Date.now(),
    };
    const { id } = await this.db
      .insertInto("notification_channels")
      .values(fields)
      .returning("id")
      .executeTakeFirstOrThrow();
    this.onChange();
    const view = this.view({ id, ...fields });
    return shownSecret ? { ...view, secret: shownSecret } : view;
  }

  async delete(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom("notification_channels")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0)
      throw new ApiError(404, "ErrNotificationNotFound", "no notification channel with this id");
    this.onChange();
  }

  async deleteAll(userId: number): Promise<void> {
    await this.db.deleteFrom("notification_channels").where("user_id", "=", userId).execute();
    this.onChange();
  }

  /** One of the user's channels (404 when it is not theirs or not there). */
  async owned(userId: number, id: number): Promise<Row> {
    const row = await this.db
      .selectFrom("notification_channels")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, "ErrNotificationNotFound", "no notification channel with this id");
    return row;
  }

  /** A push service said the subscription is gone (404/410): the channel goes with it. */
  async forget(id: number): Promise<void> {
    await this.db.deleteFrom("notification_channels").where("id", "=", id).execute();
    this.onChange();
  }

  /** Every channel that wants `event`. */
  async wanting(event: NotificationEvent): Promise<Row[]> {
    const rows = await this.db
      .selectFrom("notification_channels")
      .selectAll()
      .where("events", "like", `%${event}%`)
      .execute();
    return rows.filter((row) => split(row.events).includes(event));
  }

  /** The plain webhook URL or secret or push subscription of a channel, for delivery. */
  open(sealed: string): string {
    return this.box.open(sealed);
  }

  private view(row: Row): ChannelView {
    const view: ChannelView = {
      id: row.id,
      type: row.type,
      events: split(row.events),
      servers: split(row.servers),
      createdAt: Number(row.created_at),
    };
    try {
      if (row.type === "webhook") view.url = this.box.open(row.target);
      if (row.type === "webpush")
        view.endpoint = (JSON.parse(this.box.open(row.target)) as { endpoint: string }).endpoint;
    } catch {
      // Sealed under another key: listed without its address, still deletable.
    }
    return view;
  }

  private async dropEndpoint(userId: number, endpoint: string): Promise<void> {
    const rows = await this.db
      .selectFrom("notification_channels")
      .selectAll()
      .where("user_id", "=", userId)
      .where("type", "=", "webpush")
      .execute();
    const same = rows.filter((row) => this.view(row).endpoint === endpoint).map((row) => row.id);
    if (same.length > 0) await this.db.deleteFrom("notification_channels").where("id", "in", same).execute();
  }

  /** Only servers the owner can see: another server is not found, as in every other route. */
  private async assertVisible(owner: ChannelOwner, servers: string[]): Promise<void> {
    if (servers.length === 0) return;
    const found = await this.db.selectFrom("servers").select("id").where("id", "in", servers).execute();
    const known = new Set(found.map((r) => r.id));
    let visible = known;
    if (!owner.admin) {
      visible = new Set(await this.permissions.serversOf(owner.userId, servers));
    }
    for (const id of servers)
      if (!known.has(id) || !visible.has(id))
        throw new ApiError(404, "ErrServerNotFound", "no such server: ${server}", { server: id });
  }

  /**
   * An http(s) URL; for anyone but an administrator an https one (push) whose
   * host has only public addresses (webhooks too), the rule template
   * repositories follow. The check is made again at each delivery.
   */
  private async checkedUrl(
    owner: ChannelOwner,
    field: string,
    given: string | undefined,
    httpsOnly: boolean,
  ): Promise<string> {
    const text = (given ?? "").trim();
    if (!text) throw new ApiError(400, "ErrFieldRequired", "${field} is required", { field });
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalid(field, "is not a URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid(field, "must be an http(s) URL");
    if (url.username || url.password) throw invalid(field, "must not carry a user name or password");
    // Discord's hooks have one shape; anything else on its hosts would only fail at the first alert.
    const host = url.hostname.toLowerCase();
    if (/(^|\.)discord(app)?\.com$/.test(host) && !isDiscordHook(url.href))
      throw invalid(field, "is not a Discord webhook address (https://discord.com/api/webhooks/…)");
    if (owner.admin) return url.href;
    if (httpsOnly && url.protocol !== "https:") throw invalid(field, "must be an https URL");
    const reachable = await checkedAddressOf(url).then(
      () => true,
      () => false,
    );
    if (!reachable) throw invalid(field, "must be a public address that can be reached");
    return url.href;
  }
}

function decodedLength(text: string): number {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return -1;
  return Buffer.from(text, "base64url").length;
}
