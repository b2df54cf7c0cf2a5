import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { confirmAsync } from "../../components/confirmStore";
import { toastSuccess } from "../../components/toastStore";
import type { ScopeSet } from "./ScopeSetForm";

/**
 * What differs between the lists of named entries (presets, roles, sign-in providers): their
 * calls and words. An entry is saved as a `Body` with a name (a scope set unless told otherwise).
 */
interface ScopeSetCalls<Id, Body extends { name: string }> {
  create(set: Body): Promise<unknown>;
  update(id: Id, set: Body): Promise<unknown>;
  delete(id: Id): Promise<unknown>;
  reload(): void;
  /** The toast after a save, e.g. "Role {name} saved". */
  saved(name: string): string;
  /** The question before a delete. */
  deleting(name: string): { title: string; body: string };
}

/** Which entry is being edited ("new" for the add form), and saving and deleting with their toasts and question. */
export function useScopeSetList<Id, Body extends { name: string } = ScopeSet>(
  calls: ScopeSetCalls<Id, Body>,
) {
  const [editing, setEditing] = useState<Id | "new">();
  const save = async (id: Id | "new", set: Body) => {
    try {
      if (id === "new") await calls.create(set);
      else await calls.update(id, set);
      toastSuccess(calls.saved(set.name));
      setEditing(undefined);
      calls.reload();
    } catch {
      // the global handler said why
    }
  };
  const remove = async (entry: { id: Id; name: string }) => {
    const yes = await confirmAsync({
      ...calls.deleting(entry.name),
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await calls.delete(entry.id);
      calls.reload();
    } catch {
      // the global handler said why
    }
  };
  return { editing, setEditing, save, remove };
}

/** An entry's Edit and Delete buttons. */
export function EditDeleteButtons({
  onEdit,
  onDelete,
  deleteTestId,
}: {
  onEdit(): void;
  onDelete(): void;
  deleteTestId: string;
}) {
  return (
    <div className="access-actions">
      <button type="button" className="btn btn-outline btn-small" onClick={onEdit}>
        <Trans>Edit</Trans>
      </button>
      <button
        type="button"
        className="btn btn-outline btn-small color-error"
        onClick={onDelete}
        data-testid={deleteTestId}
      >
        <Trans>Delete</Trans>
      </button>
    </div>
  );
}
