import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { confirmAsync } from "../../components/confirmStore";
import { Dialog } from "../../components/Dialog";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import "./oauth-clients.css";

// What a server's OAuth clients and a user's own share: the create dialog and a list entry.

const NAME_MAX = 100;
const DESCRIPTION_MAX = 4000;

/**
 * A new client's name and description, plus `children` (a server client's permissions);
 * `create` gets the trimmed values and answers the client with its secret.
 */
export function CreateClientDialog<Created>({
  create,
  onClose,
  onCreated,
  wide,
  children,
}: {
  create: (name: string, description: string) => Promise<Created>;
  onClose: () => void;
  onCreated: (created: Created) => void;
  wide?: boolean;
  children?: ReactNode;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const descriptionId = useId();
  const nameOk = name.trim().length > 0 && name.trim().length <= NAME_MAX;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTried(true);
    if (!nameOk || busy) return;
    setBusy(true);
    try {
      onCreated(await create(name.trim(), description.trim()));
    } catch {
      // the global handler said why
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t`New OAuth client`}
      onClose={onClose}
      wide={wide}
      testId="create-client"
      actions={
        <>
          <button type="button" className="btn color-neutral" onClick={onClose}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="submit"
            form="create-client-form"
            className="btn"
            disabled={busy}
            data-testid="create-client-submit"
          >
            <Trans>Create</Trans>
          </button>
        </>
      }
    >
      <form id="create-client-form" className="client-form" onSubmit={submit} noValidate>
        <TextField
          label={t`Name`}
          value={name}
          onValue={setName}
          maxLength={NAME_MAX}
          autoComplete="off"
          required
          invalid={tried && !nameOk}
          hint={tried && !nameOk ? t`Between 1 and ${NAME_MAX} characters` : undefined}
        />
        <div className="field">
          <label htmlFor={descriptionId}>
            <Trans>Description (optional)</Trans>
          </label>
          <textarea
            id={descriptionId}
            className="client-description"
            value={description}
            maxLength={DESCRIPTION_MAX}
            rows={2}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
        </div>
        {children}
      </form>
    </Dialog>
  );
}

/** One client in a list: name, description, id, `children` (its permissions), delete with confirm. */
export function ClientEntry({
  client,
  remove,
  onDeleted,
  testId,
  children,
}: {
  client: { client_id: string; name: string; description: string };
  /** Absent when the user may not delete it. */
  remove?: () => Promise<void>;
  onDeleted: () => void;
  testId: string;
  children?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const confirmAndRemove = async () => {
    const yes = await confirmAsync({
      title: t`Delete the client ${client.name}?`,
      body: t`Programs using it can no longer get tokens, and the tokens they have stop working.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes || !remove) return;
    setBusy(true);
    try {
      await remove();
      toastSuccess(t`Client ${client.name} deleted`);
      onDeleted();
    } catch {
      setBusy(false);
    }
  };
  return (
    <li className="client-entry" data-testid={testId}>
      <div className="client-entry-main">
        <span className="client-entry-name">{client.name}</span>
        {client.description && <span className="client-entry-description small">{client.description}</span>}
        <code className="client-entry-id small">{client.client_id}</code>
        {children}
      </div>
      {remove && (
        <button
          type="button"
          className="icon-btn color-error"
          disabled={busy}
          onClick={() => void confirmAndRemove()}
          aria-label={t`Delete the client ${client.name}`}
          data-testid="delete-client"
        >
          <ScreenIcon name="trash" size={20} />
        </button>
      )}
    </li>
  );
}
