import { t } from "@lingui/core/macro";
import type { GrantOutcome } from "../../../api/serverUsers";

export const invitationMailed = (email: string) => t`An invitation was e-mailed to ${email}`;

/** An invitation the panel did not e-mail: its link (administrators only), or who must send it. */
export interface Unsent {
  email: string;
  url?: string;
}

/** What to tell after a grant: an unsent invitation to show, else whether a mail went out. */
export function unsentOf(email: string, outcome: GrantOutcome): Unsent | undefined {
  if (outcome.invite === "link") return { email, url: outcome.url };
  if (outcome.invite === "adminMustSend") return { email };
  return undefined;
}
