import type { ServerAction } from "../../api/servers";
import type { ShownStatus } from "./serverIcons";

// Which lifecycle actions a server's status allows: the list's row buttons and the view's header.

/**
 * Which of start / stop / kill to offer: start hidden while online, stop and kill while offline.
 * A server never installed (or whose install failed) offers Install, never a Start that would fail.
 */
export function listActions(status: ShownStatus | undefined, installed?: boolean): ServerAction[] {
  switch (status) {
    case "offline":
      return installed === false ? ["install"] : ["start"];
    case "online":
    case "starting":
      return ["stop", "kill"];
    case undefined:
      // the status cannot be read by this user: offer what the scopes allow
      return ["start", "stop", "kill"];
    default:
      // unknown (not answered yet), its node unreachable, installing, or an action on its way
      return [];
  }
}

/** Which lifecycle buttons to show for a status (start hidden while online; stop/kill while offline). */
export function viewActions(status: ShownStatus | undefined): ServerAction[] {
  switch (status) {
    case "offline":
      return ["start", "install"];
    case "online":
    case "starting":
      return ["stop", "kill"];
    case undefined:
      return ["start", "stop", "kill", "install"];
    default:
      return [];
  }
}
