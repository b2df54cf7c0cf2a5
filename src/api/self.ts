import type { SelfClient } from "../../server/contract/api/self";
import { del, get, post, put } from "./client";

// The signed-in user's own account (spec §7 Own account).

export interface Self {
  id: number;
  username: string;
  email: string;
  otpActive?: boolean;
}

export const getSelf = () => get<Self>("/api/self");
export const updateSelf = (body: {
  username?: string;
  email?: string;
  password: string;
  newPassword?: string;
}) => put<void>("/api/self", body);

export interface OtpStatus {
  otpEnabled: boolean;
  recoveryCodesLeft?: number;
}
export interface OtpEnrolment {
  secret: string;
  uri: string;
  /** The QR code, a data URL drawn by the panel. */
  img: string;
}
export interface RecoveryCodes {
  recoveryCodes: string[];
}

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
