import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { createRole, deleteRole, listRoles, updateRole } from "../../api/roles";
import { getSettingAnswer, postSettings } from "../../api/settings";
import { useLoad } from "../../app/useLoad";
import { Spinner } from "../../components/Spinner";
import { globalScopeGroups } from "../users/globalScopeLabels";
import { ScopeSetForm } from "./ScopeSetForm";
import { EditDeleteButtons, useScopeSetList } from "./scopeSetList";

/** What a role may hold: global scopes but admin and login, which stay the accounts' own (roles.ts). */
const roleGroups = globalScopeGroups
  .map((group) => ({
    ...group,
    scopes: group.scopes.filter((s) => s.scope !== "admin" && s.scope !== "login"),
  }))
  .filter((group) => group.scopes.length > 0);

const require2faKey = "panel.security.require2fa";

/** Roles: a name, global scopes and whether two-factor is required; and the panel-wide requirement. */
export function RolesSection() {
  const { data: roles, reload } = useLoad((signal) => listRoles({ signal }), []);
  const required = useLoad((signal) => getSettingAnswer<boolean>(require2faKey, { signal }), []);
  const { editing, setEditing, save, remove } = useScopeSetList<number>({
    create: createRole,
    update: updateRole,
    delete: deleteRole,
    reload,
    saved: (name) => t`Role ${name} saved`,
    deleting: (name) => ({
      title: t`Delete the role ${name}?`,
      body: t`Its users lose what it gave them at once.`,
    }),
  });
  const setRequired = async (on: boolean) => {
    try {
      await postSettings({ [require2faKey]: on });
      required.setData({ value: on });
    } catch {
      // the global handler said why
    }
  };

  return (
    <section className="settings-block access-block" data-testid="roles">
      <header className="access-head">
        <h2 className="small-title">
          <Trans>Roles</Trans>
        </h2>
        {editing === undefined && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setEditing("new")}
            data-testid="role-add"
          >
            <Trans>Add role</Trans>
          </button>
        )}
      </header>
      <p className="muted small">
        <Trans>
          A user holds their own panel permissions and those of their roles. A change is in force at once.
        </Trans>
      </p>
      <label className="check-row">
        <input
          type="checkbox"
          checked={required.data?.value === true}
          disabled={required.data === undefined}
          onChange={(e) => void setRequired(e.currentTarget.checked)}
          data-testid="require2fa-everyone"
        />
        <span>
          <Trans>Every account must set up two-factor sign-in before anything else</Trans>
        </span>
      </label>
      {editing === "new" && (
        <ScopeSetForm
          groups={roleGroups}
          alwaysOn={null}
          withTwoFactor
          onSave={(set) => save("new", set)}
          onCancel={() => setEditing(undefined)}
          testId="role-form"
        />
      )}
      {!roles ? (
        <Spinner />
      ) : roles.length === 0 ? (
        <p className="muted">
          <Trans>No roles yet.</Trans>
        </p>
      ) : (
        <ul className="access-list">
          {roles.map((role) =>
            editing === role.id ? (
              <li key={role.id} className="access-item">
                <ScopeSetForm
                  initial={role}
                  groups={roleGroups}
                  alwaysOn={null}
                  withTwoFactor
                  onSave={(set) => save(role.id, set)}
                  onCancel={() => setEditing(undefined)}
                  testId="role-form"
                />
              </li>
            ) : (
              <li key={role.id} className="access-item" data-testid="role">
                <div className="access-item-main">
                  <strong>{role.name}</strong>
                  <span className="muted small">
                    <Trans>
                      Permissions: {role.scopes.length} · Users: {role.users}
                    </Trans>
                    {role.require2fa && (
                      <>
                        {" · "}
                        <Trans>Two-factor required</Trans>
                      </>
                    )}
                  </span>
                </div>
                <EditDeleteButtons
                  onEdit={() => setEditing(role.id)}
                  onDelete={() => void remove(role)}
                  deleteTestId="role-delete"
                />
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
