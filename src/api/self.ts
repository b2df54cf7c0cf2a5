import { get, put } from "./client";

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
