import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { TextField } from "../../components/TextField";
import type { SecretEdit } from "./settingsForm";

/**
 * A write-only secret (spec: the API never returns it): whether it is set, a field to replace
 * it and a button to clear it. Nothing is sent unless one of those is used.
 */
export function SecretField({
  label,
  isSet,
  edit,
  onEdit,
  testId,
}: {
  label: string;
  isSet: boolean;
  edit: SecretEdit;
  onEdit: (edit: SecretEdit) => void;
  testId: string;
}) {
  const state =
    edit.kind === "clear"
      ? t`will be cleared`
      : edit.kind === "replace" && edit.value
        ? t`will be replaced`
        : isSet
          ? t`set`
          : t`not set`;
  return (
    <div className="secret-field" data-testid={testId}>
      <TextField
        label={`${label} (${state})`}
        type="password"
        autoComplete="new-password"
        value={edit.kind === "replace" ? edit.value : ""}
        placeholder={isSet ? t`Type to replace` : ""}
        onValue={(value) => onEdit(value ? { kind: "replace", value } : { kind: "keep" })}
        data-testid={`${testId}-input`}
      />
      {isSet && edit.kind !== "clear" && (
        <button
          type="button"
          className="btn-text"
          onClick={() => onEdit({ kind: "clear" })}
          data-testid={`${testId}-clear`}
        >
          <Trans>Clear</Trans>
        </button>
      )}
      {edit.kind === "clear" && (
        <button type="button" className="btn-text" onClick={() => onEdit({ kind: "keep" })}>
          <Trans>Keep it</Trans>
        </button>
      )}
    </div>
  );
}
