import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { getUserRoles, listRoles, setUserRoles } from "../../api/roles";
import type { User } from "../../api/users";
import { useLoad } from "../../app/useLoad";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";

/** The roles a user holds, for administrators: ticked and saved at once (in force for their open sessions). */
export function RolesPanel({ user, offline }: { user: User; offline: boolean }) {
  const roles = useLoad(!offline && ((signal) => listRoles({ signal })), [offline]);
  const held = useLoad(!offline && ((signal) => getUserRoles(user.id, { signal })), [user.id, offline]);
  const [draft, setDraft] = useState<number[]>();
  const [busy, setBusy] = useState(false);
  const value = draft ?? held.data ?? [];
  const changed = draft !== undefined && [...draft].sort().join() !== [...(held.data ?? [])].sort().join();

  const toggle = (id: number, on: boolean) =>
    setDraft(on ? [...new Set([...value, id])] : value.filter((r) => r !== id));
  const save = async () => {
    setBusy(true);
    try {
      const answer = await setUserRoles(user.id, value);
      held.setData(answer.roles);
      setDraft(undefined);
      toastSuccess(t`Roles saved`);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Roles</Trans>} className="user-roles">
      {!roles.data || !held.data ? (
        <Spinner />
      ) : roles.data.length === 0 ? (
        <p className="muted">
          <Trans>No roles yet: administrators define them under Roles and presets.</Trans>
        </p>
      ) : (
        <>
          <ul className="scope-list" data-testid="user-roles">
            {roles.data.map((role) => (
              <li key={role.id}>
                <label className="scope-item">
                  <input
                    type="checkbox"
                    checked={value.includes(role.id)}
                    disabled={offline}
                    onChange={(e) => toggle(role.id, e.currentTarget.checked)}
                  />
                  <span>{role.name}</span>
                </label>
              </li>
            ))}
          </ul>
          <div className="form-actions">
            <button type="button" className="btn" onClick={save} disabled={busy || !changed || offline}>
              <ScreenIcon name="save" size={18} />
              <Trans>Save roles</Trans>
            </button>
          </div>
        </>
      )}
    </Panel>
  );
}
