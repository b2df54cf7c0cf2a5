import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import type { ServerCan } from "../serverScopes";
import { alwaysGranted, type ScopeGroup, scopeGroups } from "./scopeLabels";
import "./scope-picker.css";

/** The scopes the signed-in user may give on a server: every one with server.admin, else those they hold. */
export function grantableBy(can: ServerCan): (scope: string) => boolean {
  return (scope) => can("server.admin") || can(scope);
}

/**
 * Scopes as checkboxes in labelled groups: a server's by default, or the `groups` given (a
 * user's global scopes). `editable(scope)` says which ones the signed-in user may change (the
 * panel lets a non-administrator toggle only scopes they hold, see `grantableBy`); the others show
 * their state, disabled. `alwaysOn` (server.view for a server) is always on.
 */
export function ScopePicker({
  value,
  onChange,
  editable,
  testId,
  groups = scopeGroups,
  alwaysOn = alwaysGranted,
}: {
  value: readonly string[];
  onChange: (next: string[]) => void;
  editable: (scope: string) => boolean;
  testId?: string;
  groups?: readonly ScopeGroup[];
  alwaysOn?: string | null;
}) {
  const { i18n } = useLingui();
  const id = useId();
  const chosen = new Set(value);
  if (alwaysOn) chosen.add(alwaysOn);
  // What the chosen scopes grant, server.admin holding every server scope (scopes.ts).
  const holds = (scope: string) => chosen.has(scope) || chosen.has("server.admin");

  const set = (scopes: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const s of scopes) {
      if (s === alwaysOn || !editable(s)) continue;
      if (on) next.add(s);
      else next.delete(s);
    }
    onChange([...next]);
  };

  return (
    <div className="scope-groups" data-testid={testId}>
      {groups.map((group) => {
        const changeable = group.scopes.map((s) => s.scope).filter((s) => s !== alwaysOn && editable(s));
        const allOn = changeable.length > 0 && changeable.every((s) => chosen.has(s));
        const count = group.scopes.filter((s) => chosen.has(s.scope)).length;
        const label = i18n._(group.label);
        return (
          <fieldset key={group.id} className="scope-group" data-group={group.id}>
            <legend className="scope-group-head">
              <span className="scope-group-name">{label}</span>
              <span className="scope-group-count muted small">
                {count}/{group.scopes.length}
              </span>
              {changeable.length > 1 && (
                <button
                  type="button"
                  className="btn-text small scope-group-all"
                  onClick={() => set(changeable, !allOn)}
                  aria-label={allOn ? t`Clear all in ${label}` : t`Select all in ${label}`}
                >
                  {allOn ? <Trans>None</Trans> : <Trans>All</Trans>}
                </button>
              )}
            </legend>
            <ul className="scope-list">
              {group.scopes.map(({ scope, label: scopeText, note }) => {
                const inputId = `${id}-${scope}`;
                const locked = scope === alwaysOn || !editable(scope);
                const noted = note?.(holds);
                return (
                  <li key={scope}>
                    <label
                      htmlFor={inputId}
                      className={locked ? "scope-item locked" : "scope-item"}
                      title={scope}
                    >
                      <input
                        id={inputId}
                        type="checkbox"
                        checked={chosen.has(scope)}
                        disabled={locked}
                        onChange={(e) => set([scope], e.currentTarget.checked)}
                        data-scope={scope}
                        aria-describedby={noted ? `${inputId}-note` : undefined}
                      />
                      <span>{i18n._(scopeText)}</span>
                    </label>
                    {noted && (
                      <p id={`${inputId}-note`} className="scope-note muted small" data-note-for={scope}>
                        {i18n._(noted)}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          </fieldset>
        );
      })}
    </div>
  );
}
