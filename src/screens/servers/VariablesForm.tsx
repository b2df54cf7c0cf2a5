import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import type { Group, Variable, VariableValue } from "../../../server/templates/index.ts";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import type { TemplateKit } from "./templateKit";
import { plainText, shownGroups, type Values } from "./variables";

// The variables of a template or server, grouped as the template says (spec §2.3: settings step
// and server settings). Group `if` conditions are CEL, evaluated against the values being edited.

function label(name: string, variable: Variable): string {
  const text = variable.display || name;
  return variable.required ? `${text} *` : text;
}

export function SelectField({
  text,
  hint,
  value,
  options,
  onValue,
  invalid,
  disabled,
  name,
}: {
  text: string;
  hint?: string;
  value: string;
  options: { value: string; display: string }[];
  onValue: (v: string) => void;
  invalid?: boolean;
  disabled?: boolean;
  name: string;
}) {
  const id = useId();
  return (
    <div className={invalid ? "field invalid" : "field"}>
      <label htmlFor={id}>{text}</label>
      <div className="field-box">
        <select
          id={id}
          name={name}
          value={value}
          disabled={disabled}
          onChange={(e) => onValue(e.currentTarget.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={hint ? `${id}-hint` : undefined}
        >
          {!options.some((o) => o.value === value) && <option value={value}>{value || t`(choose)`}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.display}
            </option>
          ))}
        </select>
      </div>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

function VariableField({
  name,
  variable,
  value,
  error,
  disabled,
  onChange,
}: {
  name: string;
  variable: Variable;
  value: VariableValue;
  error?: string;
  disabled?: boolean;
  onChange: (name: string, value: VariableValue) => void;
}) {
  const hint = error || plainText(variable.desc) || undefined;
  switch (variable.type) {
    case "boolean":
      return (
        <Switch
          label={label(name, variable)}
          checked={value === true || value === "true"}
          onChange={(v) => onChange(name, v)}
          hint={hint}
          disabled={disabled}
        />
      );
    case "option":
      return (
        <SelectField
          name={name}
          text={label(name, variable)}
          hint={hint}
          invalid={!!error}
          disabled={disabled}
          value={String(value ?? "")}
          options={(variable.options ?? []).map((o) => ({
            value: String(o.value),
            display: o.display || String(o.value),
          }))}
          onValue={(v) => {
            const match = variable.options?.find((o) => String(o.value) === v);
            onChange(name, match ? match.value : v);
          }}
        />
      );
    default:
      return (
        <TextField
          name={name}
          label={label(name, variable)}
          value={String(value ?? "")}
          onValue={(v) => onChange(name, v)}
          hint={hint}
          invalid={!!error}
          disabled={disabled}
          required={variable.required}
          inputMode={variable.type === "integer" ? "numeric" : undefined}
          autoComplete="off"
          spellCheck={false}
        />
      );
  }
}

export function VariablesForm({
  kit,
  data,
  groups,
  values,
  env,
  errors = {},
  disabled,
  onChange,
}: {
  kit: TemplateKit | undefined;
  data: Record<string, Variable>;
  groups: readonly Group[] | undefined;
  values: Values;
  env: string | undefined;
  errors?: Record<string, string>;
  disabled?: boolean;
  onChange: (name: string, value: VariableValue) => void;
}) {
  const shown = shownGroups(kit, data, groups, values, env);
  if (!shown.length) {
    return (
      <p className="muted" data-testid="no-variables">
        <Trans>There is nothing to set.</Trans>
      </p>
    );
  }
  const anyRequired = shown.some((g) => g.names.some((n) => data[n].required));
  return (
    <div className="var-groups">
      {shown.map((g) => (
        <fieldset key={g.key} className="var-group">
          {g.display && <legend>{g.display}</legend>}
          {g.description && <p className="muted small pre-line">{plainText(g.description)}</p>}
          <div className="var-fields">
            {g.names.map((n) => (
              <VariableField
                key={n}
                name={n}
                variable={data[n]}
                value={values[n] ?? data[n].value}
                error={errors[n]}
                disabled={disabled}
                onChange={onChange}
              />
            ))}
          </div>
        </fieldset>
      ))}
      {anyRequired && (
        <p className="muted small">
          <Trans>* required</Trans>
        </p>
      )}
    </div>
  );
}
