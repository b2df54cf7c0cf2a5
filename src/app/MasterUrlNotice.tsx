import { Trans } from "@lingui/react/macro";
import { Link, useLocation } from "wouter";
import { getSettingAnswer } from "../api/settings";
import { hasScope } from "../state/scopes";
import "../offline/offline.css";
import { useLoad } from "./useLoad";

const KEY = "panel.settings.masterUrl";
/** Once saved it stays saved: no more asking in this tab. */
let saved = false;

/**
 * To administrators, until the master URL is saved: the panel listens on every address, but the
 * addresses it shows (SFTP host, server addresses, invite links) come from that URL, whose
 * default is only a guess (127.0.0.1 for a panel listening on 0.0.0.0).
 */
export default function MasterUrlNotice() {
  const [location] = useLocation();
  const allowed = hasScope("settings.edit");
  // Asked again on each screen, so saving it shows at once. A failure here is no news: the notice
  // just stays away.
  const { data: answer } = useLoad(
    allowed &&
      !saved &&
      (() =>
        getSettingAnswer<string>(KEY, { exempt: true }).then((a) => {
          if (a?.isSet) saved = true;
          return a;
        })),
    [allowed, location],
    { keep: true },
  );
  const guess = answer && answer.isSet === false ? String(answer.value) : undefined;
  if (!allowed || saved || !guess) return null;
  let host = guess;
  try {
    host = new URL(guess).hostname;
  } catch {
    // shown as it is
  }
  return (
    <div className="offline-banner master-url-notice" role="status" data-testid="master-url-notice">
      <Trans>
        Addresses shown to users (SFTP host, server addresses, invitation links) say {host} until the panel's
        address is saved.
      </Trans>{" "}
      {location !== "/settings" && (
        <Link href="/settings">
          <Trans>Set the panel address</Trans>
        </Link>
      )}
    </div>
  );
}
