import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { useLocation } from "wouter";
import { listServerDatabases } from "../../../api/databases";
import { deleteServer, serverAction } from "../../../api/servers";
import { confirmAsync } from "../../../components/confirmStore";
import { ScreenIcon } from "../../../components/screenIcons";
import { toastSuccess } from "../../../components/toastStore";
import { ActionIcon } from "../serverIcons";
import type { ServerCan } from "../serverScopes";

/** Read the definition again from the node's disk; delete the server (each by its scope). */
export function Maintenance({ server, can }: { server: { id: string; name: string }; can: ServerCan }) {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    setBusy(true);
    try {
      await serverAction(server.id, "reload");
      toastSuccess(t`Definition reloaded`);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    // Its databases go with it: the confirmation names them.
    const databases = can("server.databases.view")
      ? await listServerDatabases(server.id, { exempt: true })
          .then((l) => l.databases.map((d) => d.name))
          .catch(() => [])
      : [];
    const names = databases.join(", ");
    const yes = await confirmAsync({
      title: t`Delete ${server.name}?`,
      body:
        t`The server and all its files are deleted on its node. This cannot be undone. A running server must be stopped first.` +
        (databases.length > 0 ? ` ${t`Its databases are dropped too: ${names}.`}` : ""),
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setBusy(true);
    try {
      await deleteServer(server.id);
      toastSuccess(t`Server ${server.name} deleted`);
      navigate("/servers");
    } catch {
      setBusy(false);
    }
  };

  return (
    <section className="settings-block">
      <h2 className="small-title">
        <Trans>Maintenance</Trans>
      </h2>
      <div className="maintenance">
        {can("server.reload") && (
          <div className="maintenance-row">
            <p className="muted small">
              <Trans>Read the definition again from the node's disk (after editing the file there).</Trans>
            </p>
            <button type="button" className="btn color-neutral" disabled={busy} onClick={() => void reload()}>
              <ActionIcon name="reload" size={18} />
              <Trans>Reload</Trans>
            </button>
          </div>
        )}
        {can("server.delete") && (
          <div className="maintenance-row">
            <p className="muted small">
              <Trans>Delete the server with its files.</Trans>
            </p>
            <button type="button" className="btn color-error" disabled={busy} onClick={() => void remove()}>
              <ScreenIcon name="trash" size={18} />
              <Trans>Delete server</Trans>
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
