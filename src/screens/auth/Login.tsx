import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, lazy, Suspense, useEffect, useState } from "react";
import { Link } from "wouter";
import * as auth from "../../api/auth";
import { loadHttp } from "../../api/client";
import { isApiError } from "../../api/errors";
import { passkeysSupported, signInWithPasskey } from "../../api/passkeys";
import { finishSignIn } from "../../app/afterLogin";
import { OTP_LENGTH } from "../../components/otpCode";
import { TextField } from "../../components/TextField";
import { toastError } from "../../components/toastStore";
import { config } from "../../state/config";
import "./auth.css";

// The code step's input loads when a sign-in asks for it: the page's first load goes without it.
const loadOtpInput = () => import("../../components/OtpInput").then((m) => ({ default: m.OtpInput }));
const OtpInput = lazy(loadOtpInput);

const emptyCode = () => Array.from({ length: OTP_LENGTH }, () => "");

// The API client's HTTP library is not part of the page's first load: it is fetched as soon as the
// form is used (a field focused, a button pressed), so that it is there when the sign-in is sent.
const warmUp = () => void loadHttp().catch(() => undefined);

export default function Login() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [step, setStep] = useState<"password" | "otp">("password");
  // The second steps the account offers: its app's code, one of its passkeys.
  const [factors, setFactors] = useState<string[]>(["otp"]);
  const [digits, setDigits] = useState(emptyCode);
  // A recovery code instead of the app's code (12 characters, typed into one field).
  const [recovery, setRecovery] = useState<string>();
  const [busy, setBusy] = useState(false);
  const registration = config.value.registrationEnabled;
  const providers = config.value.oidcProviders ?? [];

  // Back from a sign-in provider that was refused: the address says why, and what says it loads then.
  useEffect(() => {
    if (window.location.search.includes("oidcError="))
      void import("./oidcRefusal").then((refusal) => refusal.showOidcRefusal());
  }, []);

  const submitPassword = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    // Fetched beside the sign-in, in case it asks for a code.
    void loadOtpInput().catch(() => undefined);
    try {
      const answer = await auth.login(email.trim(), password);
      if (answer?.otpNeeded) {
        setFactors(answer.secondFactors ?? ["otp"]);
        setDigits(emptyCode());
        setRecovery(undefined);
        setStep("otp");
      } else finishSignIn(answer?.scopes);
    } catch {
      // the global handler showed why (invalid credentials, too many attempts, …)
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async (code: string) => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await auth.otp(code);
      finishSignIn(answer?.scopes);
    } catch (err) {
      // An expired or missing pending login cannot be retried with another code.
      if (isApiError(err) && (err.code === "ErrSessionExpired" || err.code === "ErrInvalidSession")) {
        setStep("password");
        setPassword("");
      }
      setDigits(emptyCode());
      if (recovery !== undefined) setRecovery("");
    } finally {
      setBusy(false);
    }
  };

  // A passkey alone on the first step, or the second step after the password.
  const signInByPasskey = async () => {
    if (busy) return;
    setBusy(true);
    try {
      finishSignIn((await signInWithPasskey())?.scopes);
    } catch (err) {
      if (!isApiError(err)) toastError(t`No passkey was used.`);
      else if (err.code === "ErrSessionExpired") setStep("password");
    } finally {
      setBusy(false);
    }
  };
  const passkeyButton = (label: string) =>
    passkeysSupported() && (
      <button
        type="button"
        className="btn btn-outline block"
        disabled={busy}
        onClick={() => void signInByPasskey()}
        data-testid="login-passkey"
      >
        {label}
      </button>
    );
  const withCode = factors.includes("otp");

  return (
    <div className="auth-card">
      <h1 className="auth-title">
        <Trans>Login</Trans>
      </h1>
      {step === "password" ? (
        <form onSubmit={submitPassword} onPointerDown={warmUp} className="auth-form">
          <TextField
            label={t`Email`}
            type="email"
            autoComplete="username"
            required
            value={email}
            onValue={setEmail}
            onFocus={warmUp}
            data-testid="login-email"
          />
          <TextField
            label={t`Password`}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            onFocus={warmUp}
            data-testid="login-password"
          />
          <button
            type="submit"
            className="btn color-primary block"
            disabled={busy}
            data-testid="login-submit"
          >
            <Trans>Login</Trans>
          </button>
          {passkeyButton(t`Sign in with a passkey`)}
          {providers.map((provider) => {
            const name = provider.name;
            return (
              // A whole page: the browser goes to the provider and comes back.
              <a
                key={provider.id}
                className="btn btn-outline block"
                href={`/auth/oidc/${provider.id}`}
                data-testid="login-oidc"
              >
                {t`Sign in with ${name}`}
              </a>
            );
          })}
          {registration && (
            <p className="auth-alt">
              <Trans>No account yet?</Trans>{" "}
              <Link href="/auth/register" data-testid="register-link">
                <Trans>Register</Trans>
              </Link>
            </p>
          )}
        </form>
      ) : (
        <form
          className="auth-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (recovery !== undefined) {
              if (recovery.trim()) void submitCode(recovery.trim());
            } else if (digits.every(Boolean)) void submitCode(digits.join(""));
          }}
        >
          {!withCode ? (
            <p className="muted">
              <Trans>Confirm with one of your passkeys.</Trans>
            </p>
          ) : recovery === undefined ? (
            <>
              <p className="muted">
                <Trans>Enter the code from your authenticator app.</Trans>
              </p>
              <Suspense fallback={null}>
                <OtpInput digits={digits} onDigits={setDigits} onComplete={submitCode} disabled={busy} />
              </Suspense>
            </>
          ) : (
            <TextField
              label={t`Recovery code`}
              autoComplete="off"
              autoFocus
              maxLength={20}
              value={recovery}
              onValue={setRecovery}
              data-testid="login-recovery"
            />
          )}
          {withCode && (
            <>
              <button
                type="submit"
                className="btn color-primary block"
                disabled={busy || (recovery === undefined ? !digits.every(Boolean) : !recovery.trim())}
                data-testid="otp-submit"
              >
                <Trans>Verify</Trans>
              </button>
              <button
                type="button"
                className="btn-text"
                onClick={() => setRecovery(recovery === undefined ? "" : undefined)}
                data-testid="use-recovery"
              >
                {recovery === undefined ? (
                  <Trans>Use a recovery code</Trans>
                ) : (
                  <Trans>Use the app's code</Trans>
                )}
              </button>
            </>
          )}
          {factors.includes("passkey") && passkeyButton(t`Use a passkey`)}
          <button
            type="button"
            className="btn-text"
            onClick={() => {
              setStep("password");
              setDigits(emptyCode());
            }}
          >
            <Trans>Back</Trans>
          </button>
        </form>
      )}
    </div>
  );
}
