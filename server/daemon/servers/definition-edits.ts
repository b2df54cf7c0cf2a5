import { ApiError } from "../../errors.ts";
import {
  checkVariableValue,
  type Template,
  templateErrors,
  type VariableValue,
} from "../../templates/index.ts";

/** The run section's switches, as the API names them. */
export interface Flags {
  autoStart: boolean;
  autoRestartOnCrash: boolean;
  autoRestartOnGraceful: boolean;
  /** The hang watchdog's count (run.unresponsiveRestartAfter); present only when on. */
  unresponsiveRestartAfter?: number;
}

export function flagsOf(definition: Template): Flags {
  const run = definition.run;
  return {
    autoStart: run.autostart ?? false,
    autoRestartOnCrash: run.autorecover ?? false,
    autoRestartOnGraceful: run.autorestart ?? false,
    ...(run.unresponsiveRestartAfter ? { unresponsiveRestartAfter: run.unresponsiveRestartAfter } : {}),
  };
}

export function withFlags(definition: Template, flags: Partial<Flags>): Template {
  const run = { ...definition.run };
  if (flags.autoStart !== undefined) run.autostart = flags.autoStart;
  if (flags.autoRestartOnCrash !== undefined) run.autorecover = flags.autoRestartOnCrash;
  if (flags.autoRestartOnGraceful !== undefined) run.autorestart = flags.autoRestartOnGraceful;
  if (flags.unresponsiveRestartAfter === 0) delete run.unresponsiveRestartAfter;
  else if (flags.unresponsiveRestartAfter !== undefined)
    run.unresponsiveRestartAfter = flags.unresponsiveRestartAfter;
  return { ...definition, run };
}

/** The definition with variable values set; `onlyUserEditable` refuses any the user may not change. */
export function withValues(
  definition: Template,
  values: Record<string, VariableValue>,
  onlyUserEditable: boolean,
): Template {
  const data = { ...definition.data };
  for (const [name, value] of Object.entries(values)) {
    const variable = data[name];
    if (!variable)
      throw new ApiError(400, "ErrVariableUnknown", "${field} is not a variable of this server", {
        field: name,
      });
    if (onlyUserEditable && !variable.userEdit) {
      throw new ApiError(403, "ErrVariableNotEditable", "${field} may only be changed by an administrator", {
        field: name,
      });
    }
    // Of the variable's type, one of its options, on one line (a user's value stays a value).
    const checked = checkVariableValue(variable, value, definition.egg?.rules?.[name]);
    if (!checked.ok) throw templateErrors.variableInvalid(name, checked.problem);
    data[name] = { ...variable, value: checked.value };
  }
  return { ...definition, data };
}

/** The values steps set through outputVariable, as variables later steps and the run command see. */
export function withOutputs(definition: Template, outputs: Record<string, VariableValue>): Template {
  const data = { ...definition.data };
  for (const [name, value] of Object.entries(outputs)) {
    data[name] = { ...(data[name] ?? { type: "string", display: name, internal: true }), value };
  }
  return { ...definition, data };
}
