import { t } from "@lingui/core/macro";
import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef } from "react";
import { fillDigits, isComplete, OTP_LENGTH } from "./otpCode";

interface OtpInputProps {
  digits: string[];
  onDigits: (d: string[]) => void;
  onComplete: (code: string) => void;
  disabled?: boolean;
}

/** Six separate digit boxes; typing advances, Backspace goes back, paste fills, full code submits. */
export function OtpInput({ digits, onDigits, onComplete, disabled }: OtpInputProps) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (i: number) => boxes.current[Math.max(0, Math.min(OTP_LENGTH - 1, i))]?.focus();

  useEffect(() => {
    if (!disabled && digits.every((d) => !d)) boxes.current[0]?.focus();
  }, [digits, disabled]);

  const update = (next: string[], nextFocus: number) => {
    onDigits(next);
    if (isComplete(next)) onComplete(next.join(""));
    else focus(nextFocus);
  };

  const onInput = (i: number, value: string) => {
    const typed = value.replace(/\D/g, "");
    if (!typed) {
      const next = [...digits];
      next[i] = "";
      onDigits(next);
      return;
    }
    // One box may receive the whole code (autofill), so spread it over the following boxes.
    const chars = typed.length > 1 && digits[i] && typed.startsWith(digits[i]) ? typed.slice(1) : typed;
    const r = fillDigits(digits, i, chars);
    update(r.digits, r.next);
  };

  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Backspace" && !digits[i] && i > 0) {
      e.preventDefault();
      const next = [...digits];
      next[i - 1] = "";
      onDigits(next);
      focus(i - 1);
    } else if (e.key === "ArrowLeft") focus(i - 1);
    else if (e.key === "ArrowRight") focus(i + 1);
  };

  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    const r = fillDigits(digits, i, e.clipboardData.getData("text"));
    update(r.digits, r.next);
  };

  return (
    <fieldset className="otp" disabled={disabled}>
      <legend>{t`One-time code`}</legend>
      <div className="otp-boxes">
        {digits.map((d, i) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            className="otp-digit"
            data-testid="otp-digit"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={i === 0 ? "one-time-code" : "off"}
            aria-label={t`Digit ${i + 1} of ${OTP_LENGTH}`}
            value={d}
            onChange={(e) => onInput(i, e.currentTarget.value)}
            onKeyDown={(e) => onKeyDown(i, e)}
            onPaste={(e) => onPaste(i, e)}
            onFocus={(e) => e.target.select()}
          />
        ))}
      </div>
    </fieldset>
  );
}
