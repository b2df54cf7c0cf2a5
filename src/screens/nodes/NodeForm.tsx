import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import type { FormEvent, ReactNode } from "react";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import { FIELD_LABELS, type FieldName, NAME_MAX } from "./nodeForm";
import { problemText } from "./problemText";
import type { NodeFormState } from "./useNodeForm";

/** The node's fields (spec §2.3): name, public address, the private toggle and address, SFTP port. */
export function NodeForm({
  form,
  onSubmit,
  readOnly,
  actions,
}: {
  form: NodeFormState;
  onSubmit: () => void;
  readOnly?: boolean;
  /** The submit button and whatever goes beside it. */
  actions?: ReactNode;
}) {
  const { i18n } = useLingui();
  const { values, problems } = form;

  const field = (name: FieldName, hint?: string, port?: boolean) => {
    const problem = problems[name];
    return (
      <TextField
        label={i18n._(FIELD_LABELS[name])}
        name={name}
        value={values[name]}
        onValue={(v) => form.set({ [name]: v })}
        invalid={!!problem}
        hint={problem ? problemText(problem, name) : hint}
        readOnly={readOnly}
        required
        autoComplete="off"
        spellCheck={false}
        maxLength={port ? 5 : name === "name" ? NAME_MAX : 253}
        {...(port ? { inputMode: "numeric", pattern: "[0-9]*" } : {})}
      />
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!readOnly) onSubmit();
  };

  return (
    <form className="node-form" onSubmit={submit} noValidate>
      {field("name", t`Unique; without slashes, ?, # or %`)}
      <div className="field-row">
        {field("publicHost", t`The address players and SFTP users connect to: an IP address or host name`)}
        {field("publicPort", undefined, true)}
      </div>
      <Switch
        label={t`Private address`}
        checked={values.withPrivate}
        onChange={(on) => form.set({ withPrivate: on })}
        disabled={readOnly}
        hint={
          values.withPrivate
            ? t`The panel reaches this node at the address below, e.g. on a private network`
            : t`Off: the panel reaches this node at its public address`
        }
      />
      {values.withPrivate && (
        <div className="field-row">
          {field("privateHost")}
          {field("privatePort", undefined, true)}
        </div>
      )}
      <div className="field-port">{field("sftpPort", t`Must differ from the other ports`, true)}</div>
      {actions && <div className="form-actions">{actions}</div>}
    </form>
  );
}
