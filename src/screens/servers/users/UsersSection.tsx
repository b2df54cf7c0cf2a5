import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { isPendingInvitee, listServerUsers } from "../../../api/serverUsers";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { toastSuccess } from "../../../components/toastStore";
import { LoadFailed } from "../LoadFailed";
import type { SectionProps } from "../sectionProps";
import { AddUser } from "./AddUser";
import { invitationMailed, type Unsent, unsentOf } from "./invitation";
import { UnsentInvitation } from "./UnsentInvitation";
import { UserEntry } from "./UserEntry";
import "../../../components/controls.css";
import "../entry-list.css";
import "./users.css";

/** Users of this server (spec §2.3): entries expand to their permissions, grouped. */
export default function UsersSection({ server, can }: SectionProps) {
  const loaded = useLoad(() => listServerUsers(server.id), [server.id]);
  const { data: users, reload } = loaded;
  // A failed read keeps what was shown until an answer (retry, or the next change).
  const failed = loaded.error !== undefined;
  const [open, setOpen] = useState<string>();
  const [invite, setInvite] = useState<Unsent>();

  const mayAdd = can("server.users.create") || can("server.users.edit");

  return (
    <div className="users-section">
      {invite && <UnsentInvitation {...invite} onClose={() => setInvite(undefined)} />}
      {mayAdd && (
        <AddUser
          serverId={server.id}
          can={can}
          onAdded={async (email, outcome) => {
            setOpen(email);
            reload();
            const unsent = unsentOf(email, outcome);
            if (unsent) setInvite(unsent);
            // No link: an existing user was added, or an invitee was e-mailed; the entry tells which.
            else if (await isPendingInvitee(server.id, email)) toastSuccess(invitationMailed(email));
            else toastSuccess(t`${email} added`);
          }}
        />
      )}
      <section className="settings-block">
        <h2 className="small-title">
          <Trans>Users of this server</Trans>
        </h2>
        {failed ? (
          <LoadFailed onRetry={() => reload()}>
            <Trans>The users could not be loaded.</Trans>
          </LoadFailed>
        ) : !users ? (
          <Spinner />
        ) : users.length === 0 ? (
          <p className="muted">
            <Trans>
              No user has permissions on this server of their own yet. Administrators see it anyway.
            </Trans>
          </p>
        ) : (
          <ul className="entry-list" data-testid="server-users">
            {users.map((u) => (
              <UserEntry
                key={u.email}
                serverId={server.id}
                entry={u}
                can={can}
                expanded={open === u.email}
                onToggle={() => setOpen(open === u.email ? undefined : u.email)}
                onChanged={() => reload()}
                onInvite={setInvite}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
