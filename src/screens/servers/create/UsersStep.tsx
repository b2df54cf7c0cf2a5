import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { creationUserScopes, serverScopes } from "../../../../server/contract/scopes";
import { Icon } from "../../../components/icons";
import { ScreenIcon } from "../../../components/screenIcons";
import { TextField } from "../../../components/TextField";
import { scopeLabel } from "../scopes/scopeLabels";
import { ActionIcon } from "../serverIcons";
import { withUser } from "./wizard";

/** What users named here do not get (server/contract/scopes.ts): the step lists it. */
const keptFromThem = serverScopes.filter((s) => !creationUserScopes.includes(s));

/** The wizard's third step: who gets the usual permissions on the new server. */
export function UsersStep({ users, onUsers }: { users: string[]; onUsers: (u: string[]) => void }) {
  const { i18n } = useLingui();
  const [entry, setEntry] = useState("");
  const add = () => {
    const next = withUser(users, entry);
    if (next !== users) onUsers(next);
    setEntry("");
  };
  return (
    <div className="users-step">
      <p className="muted">
        <Trans>
          These users get every permission on the server except these, which stay with administrators. Change
          what each one holds later on the server's Users tab.
        </Trans>
      </p>
      <ul className="users-step-kept muted small" data-testid="wizard-kept-scopes">
        {keptFromThem.map((scope) => {
          const label = scopeLabel(scope);
          return <li key={scope}>{label ? i18n._(label) : scope}</li>;
        })}
      </ul>
      <div className="users-add">
        <TextField
          label={t`Username`}
          value={entry}
          onValue={setEntry}
          autoComplete="off"
          maxLength={100}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn color-neutral" onClick={add} disabled={!entry.trim()}>
          <ScreenIcon name="plus" size={18} />
          <Trans>Add</Trans>
        </button>
      </div>
      {users.length === 0 ? (
        <p className="muted small">
          <Trans>No users: only administrators will see this server.</Trans>
        </p>
      ) : (
        <ul className="chips" data-testid="wizard-user-list">
          {users.map((u) => (
            <li key={u} className="chip">
              <ActionIcon name="user" size={16} />
              <span>{u}</span>
              <button
                type="button"
                className="icon-btn"
                aria-label={t`Remove ${u}`}
                onClick={() => onUsers(users.filter((x) => x !== u))}
              >
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
