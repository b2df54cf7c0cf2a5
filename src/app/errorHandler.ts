import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { navigate } from "wouter/use-browser-location";
import { type ApiError, fillTemplate, routeError } from "../api/errors";
import { showErrorDetails } from "../components/errorDetailsStore";
import { toastError } from "../components/toastStore";
import { errorTexts } from "../i18n/activate";
import { online } from "../offline/network";
import { endSession, loggedIn, twoFactorRequired } from "../state/session";
import { LOGIN_PATH } from "./access";
import { makeReturnTo, saveReturnTo } from "./returnTo";
import { routes } from "./routes";

// The global handler of spec §8, registered on the API client at boot.

let expiring = false;

/** Any 401: remember where we were, log out, say so, go to Login. Runs once for a burst of 401s. */
export async function sessionExpired(): Promise<void> {
  // Late 401s of calls made before the logout: the session is already over and announced.
  if (expiring || !loggedIn.value) return;
  expiring = true;
  try {
    try {
      saveReturnTo(sessionStorage, makeReturnTo(routes, location.pathname, location.search, location.hash));
    } catch {
      // no session storage: we just land on the server list after login
    }
    const [, errorMessage] = await Promise.all([endSession(), errorTexts()]);
    toastError(i18n._(errorMessage("ErrSessionTimedOut")!));
    navigate(LOGIN_PATH, { replace: true });
  } finally {
    expiring = false;
  }
}

const enrolPath = "/self";

/** ErrTwoFactorRequired: the account page, where enrolment is, once for a burst of refusals. */
function sendToEnrol(errorMessage: ErrorTexts): void {
  const first = !twoFactorRequired.value;
  twoFactorRequired.value = true;
  if (location.pathname === enrolPath && !first) return;
  if (first) toastError(i18n._(errorMessage("ErrTwoFactorRequired")!));
  if (location.pathname !== enrolPath) navigate(enrolPath, { replace: true });
}

function unknownToast(err: ApiError): void {
  toastError(t`An unknown error occurred`, { label: t`Details`, run: () => showErrorDetails(err) });
}

export function handleApiError(err: ApiError): void {
  // No answer at all while offline: the offline banner already says so, a toast per call would not help.
  if (err.status === undefined && !online.value) return;
  const route = routeError(err);
  if (route.kind === "session") {
    void sessionExpired();
    return;
  }
  // The errors' texts load with the first one shown (the login page's first load goes without them).
  void errorTexts().then((texts) => showApiError(err, route, texts));
}

type ErrorTexts = Awaited<ReturnType<typeof errorTexts>>;

function showApiError(err: ApiError, route: ReturnType<typeof routeError>, errorMessage: ErrorTexts): void {
  switch (route.kind) {
    case "generic":
      // Server msgs are templates with ${name} placeholders; a catalog may translate them.
      toastError(fillTemplate(i18n._(route.msg), err.metadata));
      return;
    case "unknown":
      unknownToast(err);
      return;
    case "code": {
      if (route.code === "ErrTwoFactorRequired") {
        sendToEnrol(errorMessage);
        return;
      }
      const text = errorMessage(route.code);
      // Built apart from the call: Lingui's extractor cannot read a spread inside `i18n._({…})`.
      const filled: MessageDescriptor | undefined = text && { ...text, values: route.metadata };
      if (filled) toastError(i18n._(filled));
      // A code this client has no text for yet: the server's own msg beats a generic line.
      else if (err.msg) toastError(fillTemplate(err.msg, err.metadata));
      else unknownToast(err);
    }
  }
}
