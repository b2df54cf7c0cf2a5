import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { CopyField } from "../../../components/CopyField";
import type { Unsent } from "./invitation";

/**
 * An invitation that was not e-mailed. An administrator gets the link to hand over; anyone else
 * gets none, since the link signs in as that account: an administrator must send it.
 */
export function UnsentInvitation({ email, url, onClose }: Unsent & { onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new notice is brought into view
  useEffect(() => {
    box.current?.scrollIntoView({ block: "nearest" });
  }, [url, email]);
  return (
    <section
      ref={box}
      className="invite-link"
      data-testid={url ? "invite-link" : "invite-admin-needed"}
      aria-live="polite"
    >
      <h3>
        <Trans>Invitation for {email}</Trans>
      </h3>
      {url ? (
        <>
          <p className="small">
            <Trans>
              It was not e-mailed: give this link to the person yourself. With it they choose a username and
              password. It works once, for 7 days.
            </Trans>
          </p>
          <CopyField
            label={t`Invite link`}
            labelHidden
            value={url}
            copyLabel={t`Copy the invite link`}
            testId="invite-url"
          />
        </>
      ) : (
        <p className="small">
          <Trans>
            The permissions are saved, but this panel could not e-mail the invitation, and only an
            administrator may hand out invite links. Ask an administrator to send it: they find {email} in
            this list.
          </Trans>
        </p>
      )}
      <div className="form-end">
        <button type="button" className="btn color-neutral btn-small" onClick={onClose}>
          <Trans>Done</Trans>
        </button>
      </div>
    </section>
  );
}
