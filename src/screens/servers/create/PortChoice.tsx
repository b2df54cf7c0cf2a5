import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type Dispatch, useEffect, useState } from "react";
import { portVariables } from "../../../../server/templates/port-variables";
import { freeNodeAllocations } from "../../../api/allocations";
import { Select } from "../tasks/SelectField";
import type { WizardAction, WizardState } from "./wizard";

export type FreePorts = { ip: string; port: number }[];

/** The node's free allocations (undefined while loading; empty on a node without a pool). */
export function useFreePorts(nodeId: WizardState["nodeId"]): FreePorts | undefined {
  const [free, setFree] = useState<FreePorts>();
  useEffect(() => {
    let live = true;
    setFree(undefined);
    freeNodeAllocations(nodeId, { exempt: [403, 404] }).then(
      (list) => live && setFree(list),
      () => live && setFree([]),
    );
    return () => {
      live = false;
    };
  }, [nodeId]);
  return free;
}

/** Whether the node's pool gives this template its ports: then the port fields are not asked. */
export const poolApplies = (free: FreePorts | undefined, state: WizardState): boolean =>
  !!free && free.length > 0 && portVariables(state.template?.data).length > 0;

/**
 * On a node with a pool of ports (issue 36): the port the panel will give the server (the
 * template's own when it is free, else the first free one), and the choice of another free one.
 * Nothing shows on a node without a pool: the template's value is the port, as before.
 */
export function PortChoice({
  state,
  dispatch,
  free,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  free: FreePorts | undefined;
}) {
  const [primary] = portVariables(state.template?.data);
  if (!free || !poolApplies(free, state)) return null;
  const own = Number(state.values[primary]);
  const chosen = state.ports[primary] ?? (free.some((a) => a.port === own) ? own : free[0].port);
  return (
    <div className="port-choice" data-testid="port-choice">
      <Select
        label={t`Port from the node's pool`}
        value={String(chosen)}
        onValue={(value) => dispatch({ type: "port", name: primary, port: Number(value) })}
        options={free.map((a) => ({ value: String(a.port), label: `${a.ip}:${a.port}` }))}
      />
      <p className="muted small" data-testid="port-chosen">
        <Trans>The server gets port {chosen}; its other port settings take the next free ones.</Trans>
      </p>
    </div>
  );
}
