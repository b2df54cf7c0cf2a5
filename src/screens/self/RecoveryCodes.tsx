import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useRef } from "react";
import { CopyButton } from "../../components/CopyButton";
import "../oauth/created-client.css";
import { config } from "../../state/config";
import { user } from "../../state/session";

/** The codes as a text file to keep: which panel and account they open, then one per line. */
function download(codes: string[]): void {
  const text = [
    t`Recovery codes for ${user.value?.email ?? ""} on ${config.value.branding.name} (${location.origin})`,
    t`Each code signs you in once instead of a code from your authenticator app.`,
    "",
    ...codes,
    "",
  ].join("\n");
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "recovery-codes.txt";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Freshly made recovery codes, shown this once, two per row (spec §2.3), to copy or download. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const shown = useRef<HTMLOListElement>(null);
  return (
    <div className="recovery" data-testid="recovery-codes">
      <p className="client-warning" role="alert">
        <Trans>
          Store these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator
          app. They are shown only now.
        </Trans>
      </p>
      <ol className="recovery-codes" ref={shown}>
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="self-actions">
        <CopyButton text={codes.join("\n")} shown={shown} label={t`Copy the recovery codes`} />
        <button
          type="button"
          className="btn btn-outline btn-small"
          onClick={() => download(codes)}
          data-testid="download-codes"
        >
          <Trans>Download</Trans>
        </button>
        <button type="button" className="btn" onClick={onDone} data-testid="codes-done">
          <Trans>I have stored them</Trans>
        </button>
      </div>
    </div>
  );
}
