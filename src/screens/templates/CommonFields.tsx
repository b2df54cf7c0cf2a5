import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Problem } from "../../../server/templates/index.ts";
import { TextField } from "../../components/TextField";
import { type CommonField, type CommonValues, FIELD_PATHS } from "./draft";

const TOKEN = "${name}";

/**
 * The fields most templates change, kept in step with the JSON: a change here rewrites that
 * value in the text, and the text's value shows here. Disabled while the text is not JSON.
 */
export function CommonFields({
  values,
  onValue,
  problems,
  commandIsList,
}: {
  values?: CommonValues;
  onValue: (field: CommonField, value: string) => void;
  problems: readonly Problem[];
  commandIsList: boolean;
}) {
  const labels: Record<CommonField, string> = {
    display: t`Display name`,
    type: t`Server type`,
    icon: t`Icon`,
    command: t`Run command`,
    stop: t`Stop command`,
    stopCode: t`Stop signal`,
  };
  const hints: Record<CommonField, string> = {
    display: t`What people see when they pick a template`,
    type: t`E.g. minecraft-java or terraria; it chooses the server's icon`,
    icon: t`Optional icon key, e.g. minecraft`,
    command: commandIsList
      ? t`This template picks its command by conditions: edit the list in the JSON`
      : t`The command line that starts the server; ${TOKEN} inserts the variable called name`,
    stop: t`Console text that stops the server, e.g. stop`,
    stopCode: t`Optional signal number, e.g. 15 (SIGTERM); when set it wins over the stop command`,
  };

  const field = (name: CommonField, extra?: { inputMode?: "numeric" }) => {
    const problem = problems.find((p) => p.path === FIELD_PATHS[name]);
    return (
      <TextField
        label={labels[name]}
        name={name}
        value={values?.[name] ?? ""}
        onValue={(v) => onValue(name, v)}
        disabled={!values}
        readOnly={name === "command" && commandIsList}
        invalid={!!problem}
        hint={problem ? problem.problem : hints[name]}
        autoComplete="off"
        spellCheck={name === "display"}
        data-testid={`field-${name}`}
        {...extra}
      />
    );
  };

  return (
    <fieldset className="common-fields" disabled={!values}>
      <legend className="visually-hidden">
        <Trans>Common fields</Trans>
      </legend>
      {!values && (
        <p className="note small">
          <Trans>Fix the JSON first: these fields show its values once it is valid JSON again.</Trans>
        </p>
      )}
      {field("display")}
      <div className="field-pair">
        {field("type")}
        {field("icon")}
      </div>
      {field("command")}
      <div className="field-pair">
        {field("stop")}
        {field("stopCode", { inputMode: "numeric" })}
      </div>
    </fieldset>
  );
}
