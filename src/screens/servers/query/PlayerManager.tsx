import type { MessageDescriptor } from "@lingui/core";
import { msg, t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { getPlayers, type PlayerAction, type PlayersView, playerAction } from "../../../api/players";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";

/** The actions the form offers for the name typed, in this order. */
const formActions: { action: PlayerAction; label: MessageDescriptor; danger?: true }[] = [
  { action: "kick", label: msg`Kick`, danger: true },
  { action: "ban", label: msg`Ban`, danger: true },
  { action: "whitelistAdd", label: msg`Add to whitelist` },
  { action: "op", label: msg`Make operator` },
];

/** The game writes its list files a moment after the command: read them again then. */
const listSettleMs = 1500;

function PlayerList({
  title,
  names,
  undo,
  undoLabel,
  busy,
  onUndo,
  testId,
}: {
  title: string;
  names: PlayersView["bans"];
  undo: PlayerAction;
  undoLabel: string;
  busy: boolean;
  onUndo: (action: PlayerAction, player: string) => void;
  testId: string;
}) {
  if (names === null) return null;
  return (
    <section className="players-list" data-testid={testId}>
      <h3 className="small-title">{title}</h3>
      {names.length === 0 ? (
        <p className="muted small">
          <Trans>Nobody is on this list.</Trans>
        </p>
      ) : (
        <ul>
          {names.map((entry) => (
            <li key={entry.name}>
              <span className="players-name">{entry.name}</span>
              {entry.reason && <span className="muted small players-reason">{entry.reason}</span>}
              <button
                type="button"
                className="btn btn-small btn-outline"
                disabled={busy}
                onClick={() => onUndo(undo, entry.name)}
                aria-label={`${undoLabel}: ${entry.name}`}
              >
                {undoLabel}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Kick, ban, whitelist and op players with the commands the server's template declares
 * (issue 37), for holders of server.players.manage. The panel checks each value again: the
 * pattern here only says early that a name will be refused.
 */
export function PlayerManager({ serverId, active }: { serverId: string; active: boolean }) {
  const { _ } = useLingui();
  const [view, setView] = useState<PlayersView>();
  const [player, setPlayer] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setView(await getPlayers(serverId));
  }, [serverId]);

  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  if (!view) return null;
  if (view.actions.length === 0) {
    return (
      <p className="muted small" data-testid="players-no-commands">
        <Trans>This server's template has no player commands, so players are managed in the console.</Trans>
      </p>
    );
  }
  const offers = (action: PlayerAction) => view.actions.includes(action);
  const name = player.trim();
  const validName = new RegExp(view.namePattern, "u").test(name);

  const send = async (action: PlayerAction, who: string, why?: string) => {
    setBusy(true);
    try {
      await playerAction(serverId, action, { player: who, ...(why ? { reason: why } : {}) });
      toastSuccess(t`Sent to the game: ${who}`);
      if (action === "kick" || action === "ban") setReason("");
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
    await load().catch(() => {});
    setTimeout(() => void load().catch(() => {}), listSettleMs);
  };
  const submit = (e: FormEvent) => e.preventDefault();

  return (
    <div className="players-manager" data-testid="players-manager">
      <h2 className="small-title">
        <Trans>Manage a player</Trans>
      </h2>
      {view.online && view.online.length > 0 && (
        <div className="players-pick">
          <span className="muted small">
            <Trans>Online now:</Trans>
          </span>
          {view.online.map((who) => (
            <button
              key={who}
              type="button"
              className="btn btn-small btn-outline"
              aria-pressed={who === name}
              onClick={() => setPlayer(who)}
            >
              {who}
            </button>
          ))}
        </div>
      )}
      <form className="players-form" onSubmit={submit} data-testid="players-form">
        <TextField
          label={t`Player name`}
          value={player}
          onValue={setPlayer}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          invalid={name !== "" && !validName}
          hint={name !== "" && !validName ? t`This game does not accept such a name.` : undefined}
        />
        {(offers("kick") || offers("ban")) && (
          <TextField
            label={t`Reason (optional)`}
            value={reason}
            onValue={setReason}
            maxLength={256}
            autoComplete="off"
          />
        )}
        <div className="players-buttons">
          {formActions
            .filter(({ action }) => offers(action))
            .map(({ action, label, danger }) => (
              <button
                key={action}
                type="button"
                className={danger ? "btn color-error" : "btn btn-outline"}
                disabled={busy || !validName}
                onClick={() =>
                  void send(action, name, action === "kick" || action === "ban" ? reason.trim() : "")
                }
              >
                {_(label)}
              </button>
            ))}
        </div>
      </form>
      <div className="players-lists">
        <PlayerList
          title={t`Whitelist`}
          names={offers("whitelistRemove") ? view.whitelist : null}
          undo="whitelistRemove"
          undoLabel={t`Remove`}
          busy={busy}
          onUndo={(action, who) => void send(action, who)}
          testId="players-whitelist"
        />
        <PlayerList
          title={t`Operators`}
          names={offers("deop") ? view.ops : null}
          undo="deop"
          undoLabel={t`Remove operator`}
          busy={busy}
          onUndo={(action, who) => void send(action, who)}
          testId="players-ops"
        />
        <PlayerList
          title={t`Banned players`}
          names={offers("unban") ? view.bans : null}
          undo="unban"
          undoLabel={t`Unban`}
          busy={busy}
          onUndo={(action, who) => void send(action, who)}
          testId="players-bans"
        />
      </div>
    </div>
  );
}
