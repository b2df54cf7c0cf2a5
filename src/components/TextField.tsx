import { t } from "@lingui/core/macro";
import { type InputHTMLAttributes, useId, useState } from "react";
import { BaseIcon } from "./glyph";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  label: string;
  value: string;
  onValue: (v: string) => void;
  /** Shown under the field, announced with it. */
  hint?: string;
  invalid?: boolean;
}

/** Labelled text input; password fields get a show/hide toggle (spec §2.3). */
export function TextField({ label, value, onValue, hint, invalid, type = "text", ...rest }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const [shown, setShown] = useState(false);
  const isPassword = type === "password";
  return (
    <div className={invalid ? "field invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <div className="field-box">
        <input
          {...rest}
          id={id}
          type={isPassword && shown ? "text" : type}
          value={value}
          onChange={(e) => onValue(e.currentTarget.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={hint ? hintId : undefined}
        />
        {isPassword && (
          <button
            type="button"
            className="icon-btn"
            onClick={() => setShown(!shown)}
            aria-label={shown ? t`Hide password` : t`Show password`}
            aria-pressed={shown}
          >
            <BaseIcon name={shown ? "eyeOff" : "eye"} size={20} />
          </button>
        )}
      </div>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
