import type { ChannelCreated, ChannelView, NotificationEvent } from "../../server/contract/api/notifications";
import { del, get, post } from "./client";

// The signed-in user's alert channels (issue 24): this device's Web Push, webhooks, e-mail.

export type { ChannelCreated, ChannelView, NotificationEvent };

export interface ChannelBody {
  type: "webpush" | "webhook" | "email";
  events: NotificationEvent[];
  url?: string;
  subscription?: PushSubscriptionJSON;
}

export const listChannels = () => get<ChannelView[]>("/api/self/notifications");
export const createChannel = (body: ChannelBody) => post<ChannelCreated>("/api/self/notifications", body);
export const deleteChannel = (id: number) => del<void>(`/api/self/notifications/${id}`);
/** A test alert to one channel, sent now: what became of it. */
export const testChannel = (id: number) =>
  post<{ outcome: "sent" | "retry" | "failed" | "gone" }>(`/api/self/notifications/${id}/test`);
