import type { LoginAnswer } from "../../server/contract/api/auth";
import { type CallOptions, post } from "./client";

// POST /auth/* (spec §7). Login answers {scopes} or {otpNeeded:true}.
export type { LoginAnswer };
export interface ScopesAnswer {
  scopes?: string[];
}

// A 401 here means bad credentials, not an expired session: keep it away from the global flow.
const noSessionFlow: CallOptions = { exempt: [401] };

export const login = (email: string, password: string) =>
  post<LoginAnswer>("/auth/login", { email, password }, noSessionFlow);
export const otp = (token: string) =>
  post<ScopesAnswer>("/auth/otp", { token }, { ...noSessionFlow, sendsCode: true });
export const register = (username: string, email: string, password: string) =>
  post<ScopesAnswer>("/auth/register", { username, email, password }, noSessionFlow);
export const reauth = () => post<ScopesAnswer>("/auth/reauth", undefined, { rotatesSession: true });
export const logout = () => post<void>("/auth/logout", undefined, { exempt: true });
