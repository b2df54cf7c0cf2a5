import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { CopyField } from "../../components/CopyField";
import { Dialog } from "../../components/Dialog";
import { Icon } from "../../components/icons";
import "./created-client.css";

/**
 * A new OAuth client's id and secret, this once: after closing, only the secret's hash is left
 * on the panel, with how a program uses them: a server's client acts on that server only, a
 * user's own acts as the user.
 */
export function CreatedClient({
  created,
  actsAs,
  onClose,
}: {
  created: { name: string; client_id: string; client_secret: string };
  actsAs: "server" | "user";
  onClose: () => void;
}) {
  const tokenUrl = `${location.origin}/oauth2/token`;
  return (
    <Dialog
      title={t`Client ${created.name} created`}
      onClose={onClose}
      wide
      testId="client-created"
      actions={
        <button type="button" className="btn" onClick={onClose} data-testid="client-created-done">
          <Trans>I have stored the secret</Trans>
        </button>
      }
    >
      <p className="client-warning" role="alert">
        <Icon name="alert" size={20} />
        <span>
          <Trans>
            The secret is shown only now. Store it safely; if it is lost, delete the client and create a new
            one.
          </Trans>
        </span>
      </p>
      <div className="client-credentials">
        <CopyField label={t`Client ID`} value={created.client_id} testId="client-id" />
        <CopyField label={t`Client secret`} value={created.client_secret} testId="client-secret" />
      </div>
      <p className="muted small">
        {actsAs === "server" ? (
          <Trans>
            A program gets a one-hour token from <code>{tokenUrl}</code> with grant_type=client_credentials
            and these two values; the token acts on this server only, with the client's permissions.
          </Trans>
        ) : (
          <Trans>
            A program gets a one-hour token from <code>{tokenUrl}</code> with grant_type=client_credentials
            and these two values; the token acts as you, with all your permissions.
          </Trans>
        )}
      </p>
    </Dialog>
  );
}
