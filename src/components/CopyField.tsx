import { t } from "@lingui/core/macro";
import { useId, useRef } from "react";
import { CopyButton } from "./CopyButton";
import "./copy-field.css";

/**
 * A value to take elsewhere (a host, a secret, a link): read-only, selected on focus, with a copy
 * button. The label stands above it, or only names it for assistive technology with `labelHidden`.
 */
export function CopyField({
  label,
  value,
  testId,
  labelHidden = false,
  copyLabel = t`Copy ${label}`,
}: {
  label: string;
  value: string;
  testId: string;
  labelHidden?: boolean;
  /** The copy button's accessible name. */
  copyLabel?: string;
}) {
  const shown = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="copy-field">
      {!labelHidden && <label htmlFor={id}>{label}</label>}
      <div className="copy-field-row">
        <input
          id={id}
          ref={shown}
          readOnly
          value={value}
          aria-label={labelHidden ? label : undefined}
          onFocus={(e) => e.currentTarget.select()}
          data-testid={testId}
        />
        <CopyButton text={value} shown={shown} label={copyLabel} />
      </div>
    </div>
  );
}
