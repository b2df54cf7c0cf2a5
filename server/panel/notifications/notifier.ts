import type { NotificationEvent } from "../../contract/api/notifications.ts";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { type AddressCheck, isPublicAddress } from "../../net/public-address.ts";
import type { Mailer, MailLog } from "../mailer.ts";
import type { Permissions } from "../permissions.ts";
import { holdsScope } from "../scopes.ts";
import type { Settings } from "../settings.ts";
import type { SharedState } from "../shared-state.ts";
import { alertText } from "./alert-texts.ts";
import { type ChannelRow, type NotificationChannels, split } from "./channels.ts";
import {
  type AlertMessage,
  type PushTarget,
  type SendOutcome,
  sendEmail,
  sendPush,
  sendWebhook,
} from "./senders.ts";
import type { VapidKeys } from "./vapid.ts";

/** Something alert-worthy, as the place that saw it says it. */
export interface AlertEvent {
  type: NotificationEvent;
  serverId?: string;
  nodeId?: number;
  /** For account events: whose account. */
  userId?: number;
  /** The reason or figure that goes with it (an install's failure, a task's name and message). */
  detail?: string;
  /** Tells apart events that are not repeats of one another (a task run, a device); default the subject. */
  key?: string;
}

interface Delivery {
  channel: ChannelRow;
  to: string;
  admin: boolean;
  message: AlertMessage;
  attempt: number;
}

/** Deliveries waiting or being retried, at most: past it the newest are dropped (and said so). */
export const maxPendingDeliveries = 500;
const concurrency = 4;
/** Waits before each retry: a hook that is down for a while still gets the alert. */
export const defaultRetryDelaysMs = [1000, 5000, 30_000, 120_000, 600_000];
/** Test alerts one user may send within testWindowMs (counted by every panel alike): a try, not a relay. */
export const testsPerWindow = 5;
const testWindowMs = 10 * 60_000;
/** The same event about the same thing is sent once in this window (a crash loop is one alert a minute). */
export const repeatWindowMs = 60_000;
const claimsKeptMs = 24 * 3600_000;

/**
 * The one dispatcher of alerts (issue 24): `notify(event)` returns at once;
 * in the background it claims the event in the database (so of several
 * panels sharing it, one sends it, and repeats within repeatWindowMs are
 * dropped), finds the channels that want it whose owners can see the server
 * (or node, or own the account), and queues one delivery per channel. The
 * queue is bounded and each delivery is retried with back-off.
 *
 * Limits: the queue lives in this panel's memory, so deliveries still
 * pending when it stops are lost; a claimed event is not handed to another panel.
 */
export class Notifier {
  private readonly queue: Delivery[] = [];
  private active = 0;
  private readonly retries = new Set<NodeJS.Timeout>();
  private claimsMade = 0;
  /** Where delivery problems are told; the app's logger once it exists. */
  log: MailLog = {
    info: () => {},
    warn: (obj, msg) => process.emitWarning(`${msg} ${JSON.stringify(obj)}`),
  };

  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly channels: NotificationChannels,
    private readonly mailer: Mailer,
    private readonly settings: Settings,
    private readonly vapid: VapidKeys,
    private readonly shared: SharedState,
    private readonly retryDelaysMs: readonly number[] = defaultRetryDelaysMs,
  ) {}

  /** Never blocks or throws: the event's own path goes on whatever becomes of the alert. */
  notify(event: AlertEvent): void {
    void this.dispatch(event).catch((err: unknown) =>
      this.log.warn({ err: String(err), event: event.type }, "alert not dispatched"),
    );
  }

  close(): void {
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    this.queue.length = 0;
  }

  private async dispatch(event: AlertEvent): Promise<void> {
    const wanting = await this.channels.wanting(event.type);
    if (wanting.length === 0) return;
    const subject = event.key ?? String(event.serverId ?? event.nodeId ?? event.userId ?? "");
    if (!(await this.claim(`${event.type}:${subject}`))) return;
    const recipients = await this.recipients(event, wanting);
    if (recipients.length === 0) return;
    const messageIn = await this.message(event);
    // Each in its owner's language (issue 41): built once per language among the recipients.
    const byLocale = new Map<string, AlertMessage>();
    for (const { channel, to, admin, locale } of recipients) {
      const message = byLocale.get(locale) ?? messageIn(locale);
      byLocale.set(locale, message);
      this.enqueue({ channel, to, admin, message, attempt: 0 });
    }
  }

  /** True for the one panel (and the one time within the window) that is to send it. */
  private async claim(key: string): Promise<boolean> {
    const now = Date.now();
    if (++this.claimsMade % 100 === 0)
      await this.db
        .deleteFrom("notification_claims")
        .where("at", "<", now - claimsKeptMs)
        .execute();
    const result = await this.db
      .insertInto("notification_claims")
      .values({ key: key.slice(0, 200), at: now })
      .onConflict((oc) =>
        oc
          .column("key")
          .doUpdateSet({ at: now })
          .where("notification_claims.at", "<", now - repeatWindowMs),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The channels whose owners may learn of the event, with each owner's address and standing. */
  private async recipients(
    event: AlertEvent,
    wanting: ChannelRow[],
  ): Promise<{ channel: ChannelRow; to: string; admin: boolean; locale: string }[]> {
    const owners = [...new Set(wanting.map((c) => c.user_id))];
    // The language each owner chose in the web app (a preference kept on the panel).
    const locales = new Map(
      (
        await this.db
          .selectFrom("user_settings")
          .select(["user_id", "value"])
          .where("user_id", "in", owners)
          .where("key", "=", "locale")
          .execute()
      ).map((r) => [r.user_id, r.value]),
    );
    const users = await this.db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "in", owners)
      .execute();
    const grants = await this.permissions.grantsOf(owners);
    const admins = new Set<number>();
    const seen = new Set<string>();
    for (const [userId, rows] of grants)
      for (const [serverId, scopes] of rows)
        if (serverId !== "") seen.add(`${userId}:${serverId}`);
        else if (holdsScope(scopes, "admin")) admins.add(userId);
    let subjects: string[] = [];
    if (event.serverId !== undefined) subjects = [event.serverId];
    else if (event.nodeId !== undefined)
      subjects = (
        await this.db.selectFrom("servers").select("id").where("node_id", "=", event.nodeId).execute()
      ).map((r) => r.id);
    const email = new Map(users.map((u) => [u.id, u.email]));
    const found: { channel: ChannelRow; to: string; admin: boolean; locale: string }[] = [];
    for (const channel of wanting) {
      const to = email.get(channel.user_id);
      if (to === undefined) continue;
      const admin = admins.has(channel.user_id);
      if (!this.concerns(event, channel, admin, subjects, seen)) continue;
      found.push({ channel, to, admin, locale: locales.get(channel.user_id) ?? "en_US" });
    }
    return found;
  }

  private concerns(
    event: AlertEvent,
    channel: ChannelRow,
    admin: boolean,
    subjects: string[],
    seen: Set<string>,
  ): boolean {
    if (event.type === "account.newDevice") return channel.user_id === event.userId;
    const visible = admin ? subjects : subjects.filter((id) => seen.has(`${channel.user_id}:${id}`));
    const chosen = split(channel.servers);
    if (chosen.length > 0) return visible.some((id) => chosen.includes(id));
    // A node with no servers yet concerns administrators, who see every node.
    return visible.length > 0 || (admin && event.nodeId !== undefined && event.serverId === undefined);
  }

  /** What is known of the event, and its message in a given language. */
  private async message(event: AlertEvent): Promise<(locale: string) => AlertMessage> {
    const base = String(await this.settings.get("panel.settings.masterUrl")).replace(/\/+$/, "");
    const at = new Date().toISOString();
    const detail = event.detail ? oneLine(event.detail) : "";
    const server =
      event.serverId === undefined
        ? undefined
        : await this.db
            .selectFrom("servers")
            .select(["id", "name", "node_id"])
            .where("id", "=", event.serverId)
            .executeTakeFirst();
    const nodeId = event.nodeId ?? server?.node_id;
    const nodeRow =
      nodeId === undefined || nodeId === 0
        ? undefined
        : await this.db
            .selectFrom("nodes")
            .select(["id", "name"])
            .where("id", "=", nodeId)
            .executeTakeFirst();
    const node = nodeId === undefined ? undefined : { id: nodeId, name: nodeRow?.name ?? "local" };
    const name = server?.name ?? event.serverId ?? "";
    const serverPart = server ? { id: server.id, name: server.name } : undefined;
    const url = server
      ? `${base}/servers/view/${encodeURIComponent(server.id)}`
      : event.type === "node.unreachable" && node
        ? `${base}/nodes/view/${node.id}`
        : `${base}/self`;
    return (locale) => ({
      event: event.type,
      at,
      ...alertText(event.type, locale, { server: name, node: node?.name ?? "", detail }),
      lang: locale,
      url,
      ...(serverPart ? { server: serverPart } : {}),
      ...(node ? { node } : {}),
    });
  }

  private enqueue(delivery: Delivery): void {
    if (this.queue.length + this.active + this.retries.size >= maxPendingDeliveries) {
      this.log.warn(
        { event: delivery.message.event, channel: delivery.channel.id },
        "alert queue full: alert dropped",
      );
      return;
    }
    this.queue.push(delivery);
    this.pump();
  }

  private pump(): void {
    while (this.active < concurrency && this.queue.length > 0) {
      const delivery = this.queue.shift() as Delivery;
      this.active++;
      void this.attempt(delivery).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async attempt(delivery: Delivery): Promise<void> {
    let outcome: SendOutcome;
    try {
      outcome = await this.send(delivery);
    } catch (err) {
      this.log.warn({ err: String(err), channel: delivery.channel.id }, "alert not sent");
      outcome = "failed";
    }
    if (outcome === "gone") await this.channels.forget(delivery.channel.id).catch(() => {});
    if (outcome !== "retry") return;
    const wait = this.retryDelaysMs[delivery.attempt];
    if (wait === undefined) {
      this.log.warn(
        { channel: delivery.channel.id, event: delivery.message.event },
        "alert given up after retries",
      );
      return;
    }
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      this.enqueue({ ...delivery, attempt: delivery.attempt + 1 });
    }, wait);
    timer.unref();
    this.retries.add(timer);
  }

  private async send({ channel, to, admin, message }: Delivery): Promise<SendOutcome> {
    // Checked at every delivery, not only when the channel was made: a name may now point inside.
    const allowed: AddressCheck = admin ? () => true : isPublicAddress;
    if (channel.type === "email") {
      const company = String(await this.settings.get("panel.settings.companyName"));
      return sendEmail(this.mailer, to, company, message, this.log);
    }
    if (channel.type === "webhook") {
      return sendWebhook(
        this.channels.open(channel.target),
        this.channels.open(channel.secret),
        message,
        allowed,
      );
    }
    const target = JSON.parse(this.channels.open(channel.target)) as PushTarget;
    if (!admin && !target.endpoint.startsWith("https:")) return "failed";
    return sendPush(target, message, await this.vapid.get(), await this.vapidSubject(), allowed);
  }

  /**
   * A test alert to one of the owner's channels, in their language, sent once now (no retries, no
   * claim: it is about nothing): what became of it, so the owner sees at once whether it works.
   */
  async sendTest(owner: { userId: number; admin: boolean }, channelId: number): Promise<SendOutcome> {
    const channel = await this.channels.owned(owner.userId, channelId);
    const key = `alert-test:${owner.userId}`;
    const now = Date.now();
    const sent = (await this.shared.times([key], now - testWindowMs)).get(key) ?? [];
    if (sent.length >= testsPerWindow) {
      const retryAfter = Math.ceil((sent[sent.length - testsPerWindow] + testWindowMs - now) / 1000);
      throw new ApiError(429, "ErrTooManyAttempts", "too many test alerts, try again in ${retryAfter} s", {
        retryAfter,
      });
    }
    await this.shared.record([{ key, keepMs: testWindowMs }], now);
    const user = await this.db
      .selectFrom("users")
      .leftJoin("user_settings", (join) =>
        join.onRef("user_settings.user_id", "=", "users.id").on("user_settings.key", "=", "locale"),
      )
      .select(["users.email", "user_settings.value as locale"])
      .where("users.id", "=", owner.userId)
      .executeTakeFirstOrThrow();
    const locale = user.locale ?? "en_US";
    const base = String(await this.settings.get("panel.settings.masterUrl")).replace(/\/+$/, "");
    const panel = String(await this.settings.get("panel.settings.companyName"));
    const message: AlertMessage = {
      event: "test",
      at: new Date().toISOString(),
      ...alertText("test", locale, { server: oneLine(panel), node: "", detail: "" }),
      lang: locale,
      url: `${base}/self`,
    };
    let outcome: SendOutcome;
    try {
      outcome = await this.send({ channel, to: user.email, admin: owner.admin, message, attempt: 0 });
    } catch (err) {
      this.log.warn({ err: String(err), channel: channel.id }, "test alert not sent");
      outcome = "failed";
    }
    if (outcome === "gone") await this.channels.forget(channel.id);
    return outcome;
  }

  /** RFC 8292's contact: the panel's https address, else its sender's mailbox. */
  private async vapidSubject(): Promise<string> {
    const base = String(await this.settings.get("panel.settings.masterUrl"));
    if (base.startsWith("https:")) return base;
    const from = String(await this.settings.get("panel.email.from"));
    return `mailto:${/^[^\s@<>]+@[^\s@<>]+$/.test(from) ? from : "outpost@localhost"}`;
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 500);
