import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import type { Server } from "../../api/servers";
import { Icon } from "../../components/icons";
import { ScreenIcon } from "../../components/screenIcons";
import { ServerTypeIcon } from "./serverIcons";
import { serverAddress } from "./serverScopes";

/** The way back to the list, above a server's page (live or last-known). */
export function BackToServers() {
  return (
    <Link href="/servers" className="srv-back">
      <ScreenIcon name="back" size={18} className="flip-rtl" />
      <Trans>Servers</Trans>
    </Link>
  );
}

/** Who the server is, at the top of its page: type icon, name, address, node and id. */
export function ServerHeadId({ server }: { server: Server }) {
  const address = serverAddress(server);
  return (
    <div className="server-head-id">
      <ServerTypeIcon type={server.type} icon={server.icon} size={48} />
      <div className="server-head-text">
        <h1 data-testid="server-title">{server.name}</h1>
        <p className="muted small server-head-meta">
          {address && <span className="server-address">{address}</span>}
          {server.node.name && (
            <span className="srv-with-icon">
              <Icon name="node" size={14} />
              {server.node.name}
            </span>
          )}
          <span className="server-id">{server.id}</span>
        </p>
      </div>
    </div>
  );
}
