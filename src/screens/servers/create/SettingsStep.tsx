import { t } from "@lingui/core/macro";
import type { Dispatch } from "react";
import { portVariables } from "../../../../server/templates/port-variables";
import { Spinner } from "../../../components/Spinner";
import { Switch } from "../../../components/Switch";
import { TextField } from "../../../components/TextField";
import { isAdmin } from "../../../state/scopes";
import { LimitsFields } from "../LimitsFields";
import type { TemplateKit } from "../templateKit";
import { VariablesForm } from "../VariablesForm";
import { PortChoice, poolApplies, useFreePorts } from "./PortChoice";
import { formData, templateEnvironments, type WizardAction, type WizardState } from "./wizard";

/** The wizard's last step: the server's name, the template's variables, install now, limits. */
export function SettingsStep({
  state,
  dispatch,
  kit,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  kit: TemplateKit | undefined;
}) {
  const { template } = state;
  const free = useFreePorts(state.nodeId);
  if (!template) return null;
  // The pool gives every port variable its value: asking for them too would show a port the server does not get.
  const poolPorts = poolApplies(free, state) ? new Set(portVariables(template.data)) : undefined;
  const data = formData(template, isAdmin.value);
  const asked = poolPorts
    ? Object.fromEntries(Object.entries(data).filter(([name]) => !poolPorts.has(name)))
    : data;
  const envType = templateEnvironments(template)[state.envIndex]?.type ?? "host";
  return (
    <div className="settings-step">
      <TextField
        label={t`Server name *`}
        value={state.name}
        onValue={(name) => dispatch({ type: "name", name })}
        maxLength={100}
        required
        invalid={state.nameMissing}
        hint={state.nameMissing ? t`Give the server a name` : undefined}
        autoComplete="off"
        data-testid="server-name"
      />
      {kit ? (
        <VariablesForm
          kit={kit}
          data={asked}
          groups={template.groups}
          values={state.values}
          env={envType}
          errors={state.errors}
          onChange={(name, value) => dispatch({ type: "value", name, value })}
        />
      ) : (
        <Spinner />
      )}
      <PortChoice state={state} dispatch={dispatch} free={free} />
      <Switch
        label={t`Install now`}
        checked={state.installNow}
        onChange={(on) => dispatch({ type: "installNow", on })}
        hint={t`Runs the template's install steps as soon as the server is made. A server must be installed before it can start.`}
      />
      {isAdmin.value && (
        <LimitsFields texts={state.limits} onTexts={(texts) => dispatch({ type: "limits", texts })} />
      )}
    </div>
  );
}
