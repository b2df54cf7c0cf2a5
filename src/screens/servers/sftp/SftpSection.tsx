import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useRef } from "react";
import { Link } from "wouter";
import { CopyButton } from "../../../components/CopyButton";
import { CopyField } from "../../../components/CopyField";
import { user } from "../../../state/session";
import type { SectionProps } from "../sectionProps";
import { sftpCommand, sftpUsername } from "./sftpLogin";
import "../../../components/controls.css";
import "./sftp.css";

/**
 * How to reach the server's files over SFTP (spec §2.3): the node's public host and SFTP port,
 * the user name `<your e-mail>#<server id>`, and a command line using them. One signs in with an
 * SSH key from the account page or the panel password (refused for an account with two-factor
 * sign-in unless panel.sftp.passwordWith2fa is on), so nothing secret is shown here. Without a known e-mail the command shows a
 * placeholder, left untranslated because it goes into a command line.
 */
export default function SftpSection({ server }: SectionProps) {
  const commandRef = useRef<HTMLPreElement>(null);
  const email = user.value?.email;
  const username = sftpUsername(email ?? "your-email", server.id);
  const host = server.node.publicHost;
  const port = server.node.sftpPort;
  const command = sftpCommand(username, host, port);
  return (
    <div className="sftp-section" data-testid="sftp-section">
      <p>
        <Trans>
          Reach this server's files with any SFTP client (FileZilla, WinSCP, Cyberduck or the sftp command).
          You see the server's folder and nothing else.
        </Trans>
      </p>
      <CopyField label={t`Host`} value={host} testId="sftp-host" />
      <CopyField label={t`Port`} value={String(port)} testId="sftp-port" />
      <CopyField label={t`Username`} value={username} testId="sftp-username" />
      <p className="muted small" data-testid="sftp-sign-in">
        {user.value?.otpActive ? (
          <Trans>
            Sign in with one of your SSH keys. Your account has two-factor sign-in and SFTP clients have no
            place for a code, so your panel password alone is refused unless an administrator allows it.
          </Trans>
        ) : (
          <Trans>
            Sign in with one of your SSH keys or your panel password. No one-time code is asked: clients have
            no place for it.
          </Trans>
        )}{" "}
        <Link href="/self" data-testid="sftp-keys-link">
          <Trans>Add SSH keys on your account page.</Trans>
        </Link>
      </p>
      <div className="sftp-code-head">
        <h2 className="small-title">
          <Trans>Command line</Trans>
        </h2>
        <CopyButton text={command} shown={commandRef} label={t`Copy command`} />
      </div>
      <pre className="code-block" ref={commandRef} data-testid="sftp-command">
        {command}
      </pre>
    </div>
  );
}
