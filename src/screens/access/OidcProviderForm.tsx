import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import type { OidcProviderBody, OidcProviderView } from "../../api/oidc";
import type { RoleView } from "../../api/roles";
import { TextField } from "../../components/TextField";
import { Select } from "../servers/tasks/SelectField";

/** A row of the claim → role map: a value of the role claim and the id of the role it gives. */
interface MapRow {
  key: number;
  value: string;
  role: string;
}

const words = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((w) => w.trim())
    .filter(Boolean);

/**
 * An OpenID Connect provider's settings (issue 39). The client secret is write-only: the field
 * starts empty, and left empty on an edit keeps the stored one (the API's rule).
 */
export function OidcProviderForm({
  initial,
  roles,
  onSave,
  onCancel,
}: {
  initial?: OidcProviderView;
  roles: readonly RoleView[];
  onSave: (body: OidcProviderBody) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [issuer, setIssuer] = useState(initial?.issuer ?? "");
  const [clientId, setClientId] = useState(initial?.clientId ?? "");
  const [secret, setSecret] = useState("");
  const [scopes, setScopes] = useState((initial?.scopes ?? ["openid", "email", "profile"]).join(" "));
  const [domains, setDomains] = useState((initial?.allowedDomains ?? []).join(", "));
  const [createAccounts, setCreateAccounts] = useState(initial?.createAccounts ?? false);
  const [trustEmail, setTrustEmail] = useState(initial?.trustUnverifiedEmail ?? false);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [roleClaim, setRoleClaim] = useState(initial?.roleClaim ?? "");
  const [rows, setRows] = useState<MapRow[]>(() =>
    // A map may name a role by its name (the API takes either): the picker shows it by its id.
    Object.entries(initial?.roleMap ?? {}).map(([value, ref], key) => {
      const role = roles.find((r) => String(r.id) === ref || r.name === ref);
      return { key, value, role: role ? String(role.id) : "" };
    }),
  );
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const missing = { name: !name.trim(), issuer: !issuer.trim(), clientId: !clientId.trim() };
  const valid = !missing.name && !missing.issuer && !missing.clientId;
  const roleOptions = roles.map((role) => ({ value: String(role.id), label: role.name }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!valid || busy) return;
    const mapped = rows.filter((row) => row.value.trim() && row.role);
    const body: OidcProviderBody = {
      name: name.trim(),
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      scopes: words(scopes, /[\s,]+/),
      allowedDomains: words(domains, /[\s,]+/),
      createAccounts,
      trustUnverifiedEmail: trustEmail,
      enabled,
      roleClaim: roleClaim.trim() || null,
      roleMap: mapped.length ? Object.fromEntries(mapped.map((row) => [row.value.trim(), row.role])) : null,
      ...(secret ? { clientSecret: secret } : {}),
    };
    setBusy(true);
    try {
      await onSave(body);
    } finally {
      setBusy(false);
    }
  };
  const editRow = (key: number, change: Partial<MapRow>) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const check = (label: string, checked: boolean, onCheck: (on: boolean) => void, testId: string) => (
    <label className="check-row">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onCheck(e.currentTarget.checked)}
        data-testid={testId}
      />
      <span>{label}</span>
    </label>
  );

  return (
    <form className="scope-set-form" onSubmit={submit} noValidate data-testid="oidc-form">
      <TextField
        label={t`Name`}
        value={name}
        onValue={setName}
        maxLength={100}
        invalid={tried && missing.name}
        hint={tried && missing.name ? t`Enter a name` : undefined}
        data-testid="oidc-name"
      />
      <TextField
        label={t`Issuer URL`}
        type="url"
        value={issuer}
        onValue={setIssuer}
        maxLength={1024}
        placeholder="https://sso.example.com/realms/main"
        invalid={tried && missing.issuer}
        data-testid="oidc-issuer"
      />
      <TextField
        label={t`Client ID`}
        value={clientId}
        onValue={setClientId}
        maxLength={255}
        invalid={tried && missing.clientId}
        data-testid="oidc-client-id"
      />
      <TextField
        label={t`Client secret`}
        type="password"
        autoComplete="new-password"
        value={secret}
        onValue={setSecret}
        maxLength={1024}
        hint={initial?.clientSecretSet ? t`A secret is stored: leave empty to keep it.` : undefined}
        data-testid="oidc-client-secret"
      />
      <TextField label={t`Scopes`} value={scopes} onValue={setScopes} data-testid="oidc-scopes" />
      <TextField
        label={t`Allowed e-mail domains`}
        value={domains}
        onValue={setDomains}
        placeholder="example.com, example.org"
        hint={t`Empty allows every domain.`}
        data-testid="oidc-domains"
      />
      {check(
        t`Create an account at a first sign-in`,
        createAccounts,
        setCreateAccounts,
        "oidc-create-accounts",
      )}
      {check(
        t`Trust addresses the provider does not mark as verified`,
        trustEmail,
        setTrustEmail,
        "oidc-trust-email",
      )}
      {check(t`Show on the login page`, enabled, setEnabled, "oidc-enabled")}
      <TextField
        label={t`Role claim`}
        value={roleClaim}
        onValue={setRoleClaim}
        maxLength={255}
        placeholder="groups"
        hint={t`Each sign-in gives the roles its values map to, and takes the other mapped roles away.`}
        data-testid="oidc-role-claim"
      />
      {rows.map((row) => (
        <div key={row.key} className="oidc-map-row" data-testid="oidc-map-row">
          <TextField
            label={t`Claim value`}
            value={row.value}
            onValue={(value) => editRow(row.key, { value })}
            maxLength={255}
          />
          <Select
            label={t`Role`}
            value={row.role}
            onValue={(role) => editRow(row.key, { role })}
            options={[{ value: "", label: "—" }, ...roleOptions]}
          />
          <button
            type="button"
            className="btn btn-outline btn-small color-error"
            onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
          >
            <Trans>Remove</Trans>
          </button>
        </div>
      ))}
      {roles.length > 0 && (
        <button
          type="button"
          className="btn btn-outline btn-small oidc-map-add"
          onClick={() => setRows([...rows, { key: Date.now(), value: "", role: "" }])}
          data-testid="oidc-map-add"
        >
          <Trans>Map a claim value to a role</Trans>
        </button>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline color-neutral" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
        <button type="submit" className="btn" disabled={busy} data-testid="oidc-form-save">
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
}
