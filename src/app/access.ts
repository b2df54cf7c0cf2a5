// Route access rules (spec §2.1, §6) and the guard decision. Pure.

export type Access = "none" | "noAuth" | "login" | { scope: string };

export interface Guarded {
  path: string;
  access: Access;
}

export const HOME_WHEN_IN = "/servers";
export const LOGIN_PATH = "/auth/login";

export type Decision =
  | { type: "render" }
  | { type: "redirect"; to: string; rememberTarget?: boolean }
  | { type: "forbidden" };

export function permitted(access: Access, loggedIn: boolean, hasScope: (s: string) => boolean): boolean {
  if (access === "none" || access === "noAuth") return true;
  if (!loggedIn) return false;
  return access === "login" || hasScope(access.scope);
}

export function decide(route: Guarded, loggedIn: boolean, hasScope: (s: string) => boolean): Decision {
  if (route.path === "/") return { type: "redirect", to: loggedIn ? HOME_WHEN_IN : LOGIN_PATH };
  if (route.access === "noAuth")
    return loggedIn ? { type: "redirect", to: HOME_WHEN_IN } : { type: "render" };
  if (route.access === "none") return { type: "render" };
  if (!loggedIn) return { type: "redirect", to: LOGIN_PATH, rememberTarget: true };
  return permitted(route.access, loggedIn, hasScope) ? { type: "render" } : { type: "forbidden" };
}
