import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { createSelfClient, deleteSelfClient, listSelfClients, type SelfClient } from "../../api/self";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { ClientEntry, CreateClientDialog } from "../oauth/ClientParts";
import { CreatedClient } from "../oauth/CreatedClient";
import "../servers/entry-list.css";

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
            <ClientEntry
              key={c.client_id}
              client={c}
              testId="self-client"
              remove={() => deleteSelfClient(c.client_id)}
              onDeleted={() => void reload()}
            />
          ))}
        </ul>
      )}
      {creating && (
        <CreateClientDialog
          create={(name, description) => createSelfClient({ name, description })}
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
            void reload();
          }}
        />
      )}
      {created && <CreatedClient created={created} onClose={() => setCreated(undefined)} actsAs="user" />}
    </Panel>
  );
}
