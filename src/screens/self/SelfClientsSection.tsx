import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useId, useState } from "react";
import { createSelfClient, deleteSelfClient, listSelfClients, type SelfClient } from "../../api/self";
import { confirmAsync } from "../../components/confirmStore";
import { Dialog } from "../../components/Dialog";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { CreatedClient, tokenUrl } from "../oauth/CreatedClient";
import "../servers/entry-list.css";
import "../servers/clients/clients.css";

const NAME_MAX = 100;
const DESCRIPTION_MAX = 4000;

function CreateClient({ onClose, onCreated }: { onClose: () => void; onCreated: (c: SelfClient) => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const descriptionId = useId();
  const nameOk = name.trim().length > 0 && name.trim().length <= NAME_MAX;
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!nameOk || busy) return;
    setBusy(true);
    try {
      onCreated(await createSelfClient({ name: name.trim(), description: description.trim() }));
    } catch {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t`New OAuth client`}
      onClose={onClose}
      testId="create-client"
      actions={
        <>
          <button type="button" className="btn color-neutral" onClick={onClose}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="submit"
            form="create-self-client"
            className="btn"
            disabled={busy || !nameOk}
            data-testid="create-client-submit"
          >
            <Trans>Create</Trans>
          </button>
        </>
      }
    >
      <form id="create-self-client" className="client-form" onSubmit={submit}>
        <TextField
          label={t`Name`}
          value={name}
          onValue={setName}
          maxLength={NAME_MAX}
          autoComplete="off"
          required
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
      </form>
    </Dialog>
  );
}

/** The user's own OAuth clients (spec §2.3): programs acting as this user, secret shown once. */
export function SelfClientsSection() {
  const [clients, setClients] = useState<SelfClient[]>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SelfClient>();

  const reload = async () => {
    try {
      setClients(await listSelfClients());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the section mounts
  useEffect(() => {
    void reload();
  }, []);

  const remove = async (client: SelfClient) => {
    const yes = await confirmAsync({
      title: t`Delete the client ${client.name}?`,
      body: t`Programs using it can no longer get tokens, and the tokens they have stop working.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deleteSelfClient(client.client_id);
      toastSuccess(t`Client ${client.name} deleted`);
      void reload();
    } catch {
      // reported globally
    }
  };

  return (
    <Panel title={<Trans>OAuth clients</Trans>} className="self-section">
      <div className="clients-head">
        <p className="muted small">
          <Trans>
            An OAuth client lets a program (a script, a bot) use the API as you, with all your permissions.
          </Trans>
        </p>
        <button type="button" className="btn" onClick={() => setCreating(true)} data-testid="new-client">
          <ScreenIcon name="plus" size={18} />
          <Trans>New client</Trans>
        </button>
      </div>
      {!clients ? (
        <Spinner />
      ) : clients.length === 0 ? (
        <p className="muted" data-testid="no-clients">
          <Trans>You have no OAuth clients.</Trans>
        </p>
      ) : (
        <ul className="entry-list" data-testid="self-clients">
          {clients.map((c) => (
            <li className="client-entry" key={c.client_id} data-testid="self-client">
              <div className="client-entry-main">
                <span className="client-entry-name">{c.name}</span>
                {c.description && <span className="client-entry-description small">{c.description}</span>}
                <code className="client-entry-id small">{c.client_id}</code>
              </div>
              <button
                type="button"
                className="icon-btn color-error"
                onClick={() => void remove(c)}
                aria-label={t`Delete the client ${c.name}`}
                data-testid="delete-client"
              >
                <ScreenIcon name="trash" size={20} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {creating && (
        <CreateClient
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
            void reload();
          }}
        />
      )}
      {created && (
        <CreatedClient
          created={created}
          onClose={() => setCreated(undefined)}
          usage={
            <Trans>
              A program gets a one-hour token from <code>{tokenUrl()}</code> with
              grant_type=client_credentials and these two values; the token acts as you, with all your
              permissions.
            </Trans>
          }
        />
      )}
    </Panel>
  );
}
