import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useId, useState } from "react";
import { addSshKey, listSshKeys, removeSshKey, type SshKey } from "../../api/self";
import { confirmAsync } from "../../components/confirmStore";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import "../oauth/oauth-clients.css";
import "../servers/entry-list.css";

/** The user's SSH keys for SFTP (issue 39): paste a .pub line to add one; each removed with a confirm. */
export function SshKeysSection() {
  const [keys, setKeys] = useState<SshKey[]>();
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const [busy, setBusy] = useState(false);
  const keyId = useId();

  const reload = async () => {
    try {
      setKeys(await listSshKeys());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the section mounts
  useEffect(() => {
    void reload();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!publicKey.trim() || busy) return;
    setBusy(true);
    try {
      const added = await addSshKey({ name: name.trim() || undefined, publicKey: publicKey.trim() });
      toastSuccess(t`SSH key ${added.name} added`);
      setName("");
      setPublicKey("");
      await reload();
    } catch {
      // the global handler said why (wrong type, too short, already there)
    } finally {
      setBusy(false);
    }
  };

  const remove = async (key: SshKey) => {
    const yes = await confirmAsync({
      title: t`Remove the SSH key ${key.name}?`,
      body: t`SFTP clients using it can no longer sign in with it.`,
      confirm: { text: t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await removeSshKey(key.id);
      toastSuccess(t`SSH key ${key.name} removed`);
      await reload();
    } catch {
      // reported globally
    }
  };

  return (
    <Panel title={<Trans>SSH keys</Trans>} className="self-section">
      <p className="muted small">
        <Trans>
          Sign in to SFTP with a key instead of your password. Paste a public key (the contents of a .pub
          file, such as ~/.ssh/id_ed25519.pub): Ed25519, ECDSA or RSA of 2048 bits or more.
        </Trans>
      </p>
      {!keys ? (
        <Spinner />
      ) : keys.length === 0 ? (
        <p className="muted" data-testid="no-ssh-keys">
          <Trans>You have no SSH keys.</Trans>
        </p>
      ) : (
        <ul className="entry-list" data-testid="ssh-key-list">
          {keys.map((key) => (
            <li key={key.id} className="client-entry" data-testid="ssh-key">
              <div className="client-entry-main">
                <span className="client-entry-name">{key.name}</span>
                <span className="small muted">
                  {key.algorithm} · {key.bits}
                </span>
                <code className="client-entry-id small">{key.fingerprint}</code>
              </div>
              <button
                type="button"
                className="icon-btn color-error"
                onClick={() => void remove(key)}
                aria-label={t`Remove the SSH key ${key.name}`}
                data-testid="remove-ssh-key"
              >
                <ScreenIcon name="trash" size={20} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="ssh-key-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={keyId}>
            <Trans>Public key</Trans>
          </label>
          <textarea
            id={keyId}
            className="ssh-key-text"
            value={publicKey}
            rows={3}
            maxLength={16384}
            spellCheck={false}
            placeholder="ssh-ed25519 AAAA… you@laptop"
            onChange={(e) => setPublicKey(e.currentTarget.value)}
            data-testid="ssh-key-text"
          />
        </div>
        <TextField
          label={t`Name (optional)`}
          value={name}
          onValue={setName}
          maxLength={100}
          autoComplete="off"
          data-testid="ssh-key-name"
        />
        <button type="submit" className="btn" disabled={busy || !publicKey.trim()} data-testid="add-ssh-key">
          <ScreenIcon name="plus" size={18} />
          <Trans>Add key</Trans>
        </button>
      </form>
    </Panel>
  );
}
