import { t } from "@lingui/core/macro";
import { Plural, Trans } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import {
  confirmOtp,
  disableOtp,
  getOtp,
  type OtpEnrolment,
  type OtpStatus,
  regenerateRecoveryCodes,
  startOtp,
} from "../../api/self";
import { CopyButton } from "../../components/CopyButton";
import { Dialog } from "../../components/Dialog";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { loadUser, twoFactorRequired } from "../../state/session";
import { RecoveryCodes } from "./RecoveryCodes";

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/** Asks for a code (app or recovery) before an action that weakens or renews two-factor sign-in. */
function CodePrompt({
  title,
  action,
  danger,
  onCode,
  onClose,
}: {
  title: string;
  action: string;
  danger?: boolean;
  onCode: (code: string) => Promise<void>;
  onClose: () => void;
}) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!code.trim() || busy) return;
    setBusy(true);
    try {
      await onCode(code.trim());
    } catch {
      setBusy(false); // the global handler said why
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId="otp-code-prompt"
      actions={
        <>
          <button type="button" className="btn color-neutral" onClick={onClose}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="submit"
            form="otp-code-form"
            className={danger ? "btn color-error" : "btn"}
            disabled={busy || !code.trim()}
            data-testid="otp-code-submit"
          >
            {action}
          </button>
        </>
      }
    >
      <form id="otp-code-form" onSubmit={submit} className="self-form">
        <TextField
          label={t`Code from your app, or a recovery code`}
          value={code}
          onValue={setCode}
          autoComplete="one-time-code"
          autoFocus
          maxLength={20}
          data-testid="otp-code-input"
        />
      </form>
    </Dialog>
  );
}

/** Enrolment: the QR code (drawn by the panel) and the secret as text, then a code to confirm. */
function Enrol({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: OtpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const keyRef = useRef<HTMLElement>(null);
  const ready = /^\d{6}$/.test(code.trim());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      const { recoveryCodes } = await confirmOtp(code.trim());
      onConfirmed(recoveryCodes);
    } catch {
      setBusy(false);
      setCode("");
    }
  };
  return (
    <form className="otp-enrol" onSubmit={submit} data-testid="otp-enrol">
      <ol className="otp-steps">
        <li>
          <Trans>Scan this code with an authenticator app, or enter the key by hand.</Trans>
          <div className="otp-qr-row">
            <img
              className="otp-qr"
              src={enrolment.img}
              alt={t`QR code of the two-factor key`}
              width={192}
              height={192}
            />
            <div className="otp-key">
              <span className="pref-label">
                <Trans>Key</Trans>
              </span>
              {/* Wraps instead of scrolling, so the whole key can be read off a phone. */}
              <code className="otp-secret" ref={keyRef} data-testid="otp-secret">
                {grouped(enrolment.secret)}
              </code>
              <CopyButton text={enrolment.secret} shown={keyRef} label={t`Copy the key`} />
              <a className="btn-text otp-app-link" href={enrolment.uri}>
                <Trans>Open in an authenticator app on this device</Trans>
              </a>
            </div>
          </div>
        </li>
        <li>
          <Trans>Enter the 6-digit code the app shows.</Trans>
          <TextField
            label={t`Code`}
            value={code}
            onValue={(v) => setCode(v.replace(/\D/g, "").slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid="otp-confirm-code"
          />
        </li>
      </ol>
      <div className="self-actions">
        <button type="button" className="btn color-neutral" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
        <button type="submit" className="btn" disabled={busy || !ready} data-testid="otp-confirm">
          <Trans>Turn on</Trans>
        </button>
      </div>
    </form>
  );
}

type View =
  | { kind: "status" }
  | { kind: "enrol"; enrolment: OtpEnrolment }
  | { kind: "codes"; codes: string[] }
  | { kind: "prompt"; what: "disable" | "regenerate" };

/** Two-factor sign-in (spec §2.3): enrol, recovery codes two per row, regenerate, turn off. */
export function TwoFactorSection() {
  const [status, setStatus] = useState<OtpStatus>();
  const [view, setView] = useState<View>({ kind: "status" });
  const [busy, setBusy] = useState(false);

  const refresh = async () => {
    try {
      setStatus(await getOtp());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the section mounts
  useEffect(() => {
    void refresh();
  }, []);

  const start = async () => {
    setBusy(true);
    try {
      setView({ kind: "enrol", enrolment: await startOtp() });
    } catch {
      // reported globally
    } finally {
      setBusy(false);
    }
  };

  const finished = () => {
    // Enrolled: the panel answers everything again (guard.ts), the rest of the page comes back.
    twoFactorRequired.value = false;
    setView({ kind: "status" });
    void refresh();
    void loadUser();
  };

  let body: ReactNode;
  if (view.kind === "enrol") {
    body = (
      <Enrol
        enrolment={view.enrolment}
        onCancel={() => setView({ kind: "status" })}
        onConfirmed={(codes) => {
          toastSuccess(t`Two-factor sign-in is on`);
          setView({ kind: "codes", codes });
          void refresh();
        }}
      />
    );
  } else if (view.kind === "codes") {
    body = <RecoveryCodes codes={view.codes} onDone={finished} />;
  } else if (!status) {
    body = <Spinner />;
  } else if (!status.otpEnabled) {
    body = (
      <div className="otp-status">
        <p data-testid="otp-off">
          <Trans>
            Two-factor sign-in is off. With it on, signing in also needs a code from an authenticator app on
            your phone.
          </Trans>
        </p>
        <div className="self-actions">
          <button
            type="button"
            className="btn"
            onClick={() => void start()}
            disabled={busy}
            data-testid="otp-start"
          >
            <Trans>Set up two-factor sign-in</Trans>
          </button>
        </div>
      </div>
    );
  } else {
    const left = status.recoveryCodesLeft ?? 0;
    body = (
      <div className="otp-status">
        <p data-testid="otp-on">
          <Trans>Two-factor sign-in is on.</Trans>{" "}
          <Plural value={left} one="# recovery code left." other="# recovery codes left." />
        </p>
        <div className="self-actions">
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => setView({ kind: "prompt", what: "regenerate" })}
            data-testid="otp-regenerate"
          >
            <Trans>New recovery codes</Trans>
          </button>
          <button
            type="button"
            className="btn btn-outline color-error"
            onClick={() => setView({ kind: "prompt", what: "disable" })}
            data-testid="otp-disable"
          >
            <Trans>Turn off</Trans>
          </button>
        </div>
      </div>
    );
  }

  return (
    <Panel title={<Trans>Two-factor sign-in</Trans>} className="self-section">
      {body}
      {view.kind === "prompt" &&
        (view.what === "disable" ? (
          <CodePrompt
            title={t`Turn off two-factor sign-in?`}
            action={t`Turn off`}
            danger
            onClose={() => setView({ kind: "status" })}
            onCode={async (code) => {
              await disableOtp(code);
              toastSuccess(t`Two-factor sign-in is off`);
              finished();
            }}
          />
        ) : (
          <CodePrompt
            title={t`Make new recovery codes?`}
            action={t`Make new codes`}
            onClose={() => setView({ kind: "status" })}
            onCode={async (code) => {
              const { recoveryCodes } = await regenerateRecoveryCodes(code);
              setView({ kind: "codes", codes: recoveryCodes });
              void refresh();
            }}
          />
        ))}
    </Panel>
  );
}
