import { useLingui } from "@lingui/react";
import { Plural, Trans } from "@lingui/react/macro";
import { useState } from "react";
import {
  createServerClient,
  deleteServerClient,
  listServerClients,
  type ServerClientCreated,
} from "../../../api/serverClients";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { ScreenIcon } from "../../../components/screenIcons";
import { ClientEntry, CreateClientDialog } from "../../oauth/ClientParts";
import { CreatedClient } from "../../oauth/CreatedClient";
import { LoadFailed } from "../LoadFailed";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted, scopeLabel } from "../scopes/scopeLabels";
import type { SectionProps } from "../sectionProps";
import type { ServerCan } from "../serverScopes";
import "../../../components/controls.css";
import "../entry-list.css";
import "./clients.css";

/** A server client's permissions, each shown by its label. */
function ClientScopes({ scopes }: { scopes: string[] }) {
  const { i18n } = useLingui();
  return (
    <details className="client-entry-scopes small">
      <summary>
        <Plural value={scopes.length} one="# permission" other="# permissions" />
      </summary>
      <ul>
        {scopes.map((s) => {
          const label = scopeLabel(s);
          return (
            <li key={s} title={s}>
              {label ? i18n._(label) : s}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

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
  const [scopes, setScopes] = useState<string[]>([alwaysGranted]);
  return (
    <CreateClientDialog
      wide
      onClose={onClose}
      onCreated={onCreated}
      create={(name, description) =>
        createServerClient(serverId, { name, description, scopes: scopes.filter((s) => s !== alwaysGranted) })
      }
    >
      <h3 className="small-title">
        <Trans>Permissions</Trans>
      </h3>
      <p className="muted small client-form-note">
        <Trans>Only permissions you hold on this server can be given.</Trans>
      </p>
      <ScopePicker value={scopes} onChange={setScopes} editable={grantableBy(can)} testId="client-scopes" />
    </CreateClientDialog>
  );
}

/** OAuth clients of this server (spec §2.3): programs that act on this server only. */
export default function ClientsSection({ server, can }: SectionProps) {
  const loaded = useLoad(() => listServerClients(server.id), [server.id]);
  const { data: clients, reload } = loaded;
  // A failed read keeps what was shown until an answer (retry, or the next change).
  const failed = loaded.error !== undefined;
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
        <LoadFailed onRetry={() => reload()}>
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
              client={c}
              testId="server-client"
              remove={
                can("server.clients.delete") ? () => deleteServerClient(server.id, c.client_id) : undefined
              }
              onDeleted={() => reload()}
            >
              <ClientScopes scopes={c.scopes} />
            </ClientEntry>
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
            reload();
          }}
        />
      )}
      {created && <CreatedClient created={created} onClose={() => setCreated(undefined)} actsAs="server" />}
    </div>
  );
}
