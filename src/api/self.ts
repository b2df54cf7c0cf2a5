import type {
  OtpEnrolment,
  OtpStatus,
  RecoveryCodes,
  SelfClient,
  SelfUpdateBody,
  UserView,
} from "../../server/contract/api/self";
import type { SshKey, SshKeyCreateBody } from "../../server/contract/api/ssh-keys";
import { del, get, post, put } from "./client";

// The signed-in user's own account (spec §7 Own account).

export type Self = UserView;
export type { OtpEnrolment, OtpStatus, RecoveryCodes };

export const getSelf = () => get<Self>("/api/self");
export const updateSelf = (body: SelfUpdateBody) => put<void>("/api/self", body);

export const getOtp = () => get<OtpStatus>("/api/self/otp");
export const startOtp = () => post<OtpEnrolment>("/api/self/otp");
export const confirmOtp = (token: string) =>
  put<RecoveryCodes>("/api/self/otp", { token }, { sendsCode: true });
export const disableOtp = (token: string) =>
  del<void>(`/api/self/otp/${encodeURIComponent(token)}`, { sendsCode: true });
export const regenerateRecoveryCodes = (token: string) =>
  post<RecoveryCodes>("/api/self/otp/recovery", { token }, { sendsCode: true });

export type { SelfClient };
export const listSelfClients = () => get<SelfClient[]>("/api/self/oauth2");
export const createSelfClient = (body: { name: string; description?: string }) =>
  post<SelfClient>("/api/self/oauth2", body);
export const deleteSelfClient = (clientId: string) =>
  del<void>(`/api/self/oauth2/${encodeURIComponent(clientId)}`);

export type { SshKey } from "../../server/contract/api/ssh-keys";
export const listSshKeys = () => get<SshKey[]>("/api/self/ssh-keys");
export const addSshKey = (body: SshKeyCreateBody) => post<SshKey>("/api/self/ssh-keys", body);
export const removeSshKey = (id: number) => del<void>(`/api/self/ssh-keys/${id}`);
