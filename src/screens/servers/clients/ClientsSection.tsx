import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Plural, Trans } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import {
  createServerClient,
  deleteServerClient,
  listServerClients,
  type ServerClient,
  type ServerClientCreated,
} from "../../../api/serverClients";
import { confirmAsync } from "../../../components/confirmStore";
import { Dialog } from "../../../components/Dialog";
import { Spinner } from "../../../components/Spinner";
import { ScreenIcon } from "../../../components/screenIcons";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import { CreatedClient, tokenUrl } from "../../oauth/CreatedClient";
import { LoadFailed } from "../LoadFailed";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted, scopeLabel } from "../scopes/scopeLabels";
import type { SectionProps } from "../sectionProps";
import type { ServerCan } from "../serverScopes";
import { useSectionData } from "../useSectionData";
import "../../../components/controls.css";
import "../entry-list.css";
import "./clients.css";

const NAME_MAX = 100;
const DESCRIPTION_MAX = 4000;

function CreateClient({
  serverId,
  can,
  onClose,
  onCreated,
}: {
  serverId: string;
  can: ServerCan;
  onClose: () => void;
  onCreated: (created: ServerClientCreated) => void;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [scopes, setScopes] = useState<string[]>([alwaysGranted]);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const descriptionId = useId();
  const nameOk = name.trim().length > 0 && name.trim().length <= NAME_MAX;
  const editable = grantableBy(can);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTried(true);
    if (!nameOk || busy) return;
    setBusy(true);
    try {
      const created = await createServerClient(serverId, {
        name: name.trim(),
        description: description.trim(),
        scopes: scopes.filter((s) => s !== alwaysGranted),
      });
      onCreated(created);
    } catch {
      // the global handler said why
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t`New OAuth client`}
      onClose={onClose}
      wide
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
        <h3 className="small-title">
          <Trans>Permissions</Trans>
        </h3>
        <p className="muted small client-form-note">
          <Trans>Only permissions you hold on this server can be given.</Trans>
        </p>
        <ScopePicker value={scopes} onChange={setScopes} editable={editable} testId="client-scopes" />
      </form>
    </Dialog>
  );
}

function ClientEntry({
  serverId,
  client,
  canDelete,
  onDeleted,
}: {
  serverId: string;
  client: ServerClient;
  canDelete: boolean;
  onDeleted: () => void;
}) {
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    const yes = await confirmAsync({
      title: t`Delete the client ${client.name}?`,
      body: t`Programs using it can no longer get tokens, and the tokens they have stop working.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setBusy(true);
    try {
      await deleteServerClient(serverId, client.client_id);
      toastSuccess(t`Client ${client.name} deleted`);
      onDeleted();
    } catch {
      setBusy(false);
    }
  };
  const labels = client.scopes.map((s) => {
    const label = scopeLabel(s);
    return label ? i18n._(label) : s;
  });
  return (
    <li className="client-entry" data-testid="server-client">
      <div className="client-entry-main">
        <span className="client-entry-name">{client.name}</span>
        {client.description && <span className="client-entry-description small">{client.description}</span>}
        <code className="client-entry-id small">{client.client_id}</code>
        <details className="client-entry-scopes small">
          <summary>
            <Plural value={client.scopes.length} one="# permission" other="# permissions" />
          </summary>
          <ul>
            {labels.map((label, i) => (
              <li key={client.scopes[i]} title={client.scopes[i]}>
                {label}
              </li>
            ))}
          </ul>
        </details>
      </div>
      {canDelete && (
        <button
          type="button"
          className="icon-btn color-error"
          disabled={busy}
          onClick={() => void remove()}
          aria-label={t`Delete the client ${client.name}`}
          data-testid="delete-client"
        >
          <ScreenIcon name="trash" size={20} />
        </button>
      )}
    </li>
  );
}

/** OAuth clients of this server (spec §2.3): programs that act on this server only. */
export default function ClientsSection({ server, can }: SectionProps) {
  const { data: clients, failed, reload } = useSectionData(server.id, listServerClients);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ServerClientCreated>();

  return (
    <div className="clients-section">
      <div className="clients-head">
        <p className="muted small">
          <Trans>
            An OAuth client lets a program (a bot, a script) use the API for this server only, with the
            permissions you give it.
          </Trans>
        </p>
        {can("server.clients.create") && (
          <button type="button" className="btn" onClick={() => setCreating(true)} data-testid="new-client">
            <ScreenIcon name="plus" size={18} />
            <Trans>New client</Trans>
          </button>
        )}
      </div>
      {failed ? (
        <LoadFailed onRetry={() => void reload()}>
          <Trans>The clients could not be loaded.</Trans>
        </LoadFailed>
      ) : !clients ? (
        <Spinner />
      ) : clients.length === 0 ? (
        <p className="muted" data-testid="no-clients">
          <Trans>This server has no OAuth clients.</Trans>
        </p>
      ) : (
        <ul className="entry-list" data-testid="server-clients">
          {clients.map((c) => (
            <ClientEntry
              key={c.client_id}
              serverId={server.id}
              client={c}
              canDelete={can("server.clients.delete")}
              onDeleted={() => void reload()}
            />
          ))}
        </ul>
      )}
      {creating && (
        <CreateClient
          serverId={server.id}
          can={can}
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
              grant_type=client_credentials and these two values; the token acts on this server only, with the
              client's permissions.
            </Trans>
          }
        />
      )}
    </div>
  );
}
