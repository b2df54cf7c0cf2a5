import { navigate } from "wouter/use-browser-location";
import { dismissErrors } from "../components/toastStore";
import { beginSession } from "../state/session";
import { HOME_WHEN_IN } from "./access";
import { takeReturnTo } from "./returnTo";
import { routes } from "./routes";

/** Login, otp and register end here: start the session and go where the user meant to go. */
export function finishSignIn(scopes: string[] | undefined): void {
  let target: string | null = null;
  try {
    target = takeReturnTo(sessionStorage, routes);
  } catch {
    // storage blocked
  }
  // What went wrong on the way in (a mistyped code) is over now.
  dismissErrors();
  beginSession(scopes);
  navigate(target ?? HOME_WHEN_IN, { replace: true });
}
