import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import { scopeNeeds, withNeeds } from "../../../../server/contract/scopes";
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

  // A scope brings along what it needs (edit needs view), and taking one away takes what needs it.
  const set = (scopes: string[], on: boolean) => {
    const next = new Set(chosen);
    const changeable = (s: string) => s !== alwaysOn && editable(s);
    if (on) {
      for (const s of withNeeds(scopes.filter(changeable))) if (changeable(s)) next.add(s);
    } else {
      const gone = new Set(scopes.filter(changeable));
      for (let grew = true; grew; ) {
        grew = false;
        for (const s of next)
          if (!gone.has(s) && changeable(s) && (scopeNeeds[s] ?? []).some((n) => gone.has(n))) {
            gone.add(s);
            grew = true;
          }
      }
      for (const s of gone) next.delete(s);
    }
    onChange([...next]);
  };
  const total = groups.reduce((n, g) => n + g.scopes.length, 0);
  const chosenCount = groups.reduce((n, g) => n + g.scopes.filter((s) => chosen.has(s.scope)).length, 0);

  return (
    <div className="scope-picker" data-testid={testId}>
      <p className="scope-total muted small" aria-live="polite" data-testid="scope-count">
        <Trans>
          Chosen: {chosenCount} of {total}
        </Trans>
      </p>
      <div className="scope-groups">
        {groups.map((group) => {
          const changeable = group.scopes.map((s) => s.scope).filter((s) => s !== alwaysOn && editable(s));
          const allOn = changeable.length > 0 && changeable.every((s) => chosen.has(s));
          const noneOn = changeable.every((s) => !chosen.has(s));
          const count = group.scopes.filter((s) => chosen.has(s.scope)).length;
          const label = i18n._(group.label);
          return (
            <fieldset key={group.id} className="scope-group" data-group={group.id}>
              <legend className="scope-group-head">
                <span className="scope-group-name">{label}</span>
                <span className="scope-group-count muted small">
                  {count}/{group.scopes.length}
                </span>
                {changeable.length > 0 && (
                  <span className="scope-group-actions">
                    <button
                      type="button"
                      className="btn-text small"
                      onClick={() => set(changeable, true)}
                      disabled={allOn}
                      aria-label={t`Select all in ${label}`}
                    >
                      <Trans>Select all</Trans>
                    </button>
                    <button
                      type="button"
                      className="btn-text small"
                      onClick={() => set(changeable, false)}
                      disabled={noneOn}
                      aria-label={t`Clear all in ${label}`}
                    >
                      <Trans>Clear</Trans>
                    </button>
                  </span>
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
    </div>
  );
}
