import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { isApiError } from "../../api/errors";
import { type BackupTarget, getNode, updateNode } from "../../api/nodes";
import { handleApiError } from "../../app/errorHandler";
import { Panel } from "../../components/Panel";
import { Switch } from "../../components/Switch";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { errorMessage } from "../../i18n/errorMessages";

type Field = "endpoint" | "region" | "bucket" | "prefix" | "accessKeyId" | "secretAccessKey";
type Values = Record<Field, string> & { type: "local" | "s3"; forcePathStyle: boolean };

function valuesOf(target: BackupTarget | undefined): Values {
  const s3 = target?.type === "s3" ? target : undefined;
  return {
    type: s3 ? "s3" : "local",
    endpoint: s3?.endpoint ?? "",
    region: s3?.region ?? "",
    bucket: s3?.bucket ?? "",
    prefix: s3?.prefix ?? "",
    accessKeyId: s3?.accessKeyId ?? "",
    // Write-only: never answered, so the field starts empty and "" keeps what is stored.
    secretAccessKey: "",
    forcePathStyle: s3?.forcePathStyle ?? false,
  };
}

/** The message of an error code with its metadata, as the global handler would word it. */
function errorText(code: string, metadata: Record<string, unknown> | undefined, field?: string): string {
  const text = errorMessage(code);
  if (!text) return code;
  const filled: MessageDescriptor = { ...text, values: { ...metadata, field } };
  return i18n._(filled);
}

/**
 * Where the node keeps its backups (administrators only): its own disk, or
 * S3-compatible storage. Saving hands the target to the node, which tries
 * the bucket first; a refusal is shown here, next to its field or above the
 * button.
 */
export function NodeBackupTarget({ nodeId, target }: { nodeId: number; target: BackupTarget | undefined }) {
  const [saved, setSaved] = useState(() => valuesOf(target));
  const [values, setValues] = useState(saved);
  const [secretSet, setSecretSet] = useState(target?.type === "s3" && target.secretAccessKeySet);
  const [problem, setProblem] = useState<{ field?: Field; text: string }>();
  const [busy, setBusy] = useState(false);
  const selectId = useId();
  const labels: Record<Field, string> = {
    endpoint: t`Endpoint`,
    region: t`Region`,
    bucket: t`Bucket`,
    prefix: t`Prefix`,
    accessKeyId: t`Access key ID`,
    secretAccessKey: t`Secret access key`,
  };
  const set = (change: Partial<Values>) => {
    setValues((v) => ({ ...v, ...change }));
    setProblem(undefined);
  };
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const { type, forcePathStyle, ...fields } = values;
      await updateNode(
        nodeId,
        { backupTarget: type === "local" ? { type } : { type, forcePathStyle, ...fields } },
        { exempt: [400, 502] },
      );
      // The node's answer says how the panel stored it (the prefix ends in a slash, the region defaults).
      const fresh = (await getNode(nodeId)).backupTarget;
      const next = valuesOf(fresh);
      setSaved(next);
      setValues(next);
      setSecretSet(fresh?.type === "s3" && fresh.secretAccessKeySet);
      toastSuccess(t`Backup target saved`);
    } catch (err) {
      if (!isApiError(err) || ![400, 502].includes(err.status ?? 0)) return;
      const field = err.metadata?.field as string | undefined;
      const known = field !== undefined && field in labels ? (field as Field) : undefined;
      if (err.code === "ErrBackupTargetUnreachable" || known) {
        setProblem({ field: known, text: errorText(err.code, err.metadata, known && labels[known]) });
      } else handleApiError(err);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: Field, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={labels[name]}
      name={name}
      value={values[name]}
      onValue={(v) => set({ [name]: v })}
      invalid={problem?.field === name}
      hint={problem?.field === name ? problem.text : extra.hint}
      autoComplete="off"
      spellCheck={false}
      maxLength={name === "endpoint" ? 500 : 256}
      {...extra}
    />
  );

  const secretState = values.secretAccessKey ? t`will be replaced` : secretSet ? t`set` : t`not set`;

  return (
    <Panel title={<Trans>Backups</Trans>} className="node-backups">
      <form className="node-form" onSubmit={save} noValidate data-testid="backup-target-form">
        <div className="field">
          <label htmlFor={selectId}>
            <Trans>Where backups are kept</Trans>
          </label>
          <div className="field-box">
            <select
              id={selectId}
              value={values.type}
              onChange={(e) => set({ type: e.currentTarget.value as Values["type"] })}
              data-testid="backup-target-type"
            >
              <option value="local">{t`This node's disk`}</option>
              <option value="s3">{t`S3-compatible storage`}</option>
            </select>
          </div>
        </div>
        {values.type === "s3" && (
          <>
            {field("endpoint", { placeholder: "https://s3.example.com", type: "url", inputMode: "url" })}
            <div className="field-pair">
              {field("bucket")}
              {field("region", { placeholder: "us-east-1" })}
            </div>
            {field("prefix", { placeholder: "outpost/" })}
            {field("accessKeyId")}
            {field("secretAccessKey", {
              label: `${labels.secretAccessKey} (${secretState})`,
              type: "password",
              autoComplete: "new-password",
              placeholder: secretSet ? t`Type to replace` : "",
            })}
            <Switch
              label={t`Path-style addresses`}
              checked={values.forcePathStyle}
              onChange={(on) => set({ forcePathStyle: on })}
              hint={t`For MinIO and most storage other than AWS`}
            />
          </>
        )}
        <p className="muted backup-target-note">
          <Trans>
            The node tries the bucket before the target is saved. Backups made before stay where they are.
          </Trans>
        </p>
        {problem && !problem.field && (
          <p className="form-error" role="alert" data-testid="backup-target-problem">
            {problem.text}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy || !dirty} data-testid="backup-target-save">
            <ScreenIcon name="save" size={18} />
            <Trans>Save</Trans>
          </button>
        </div>
      </form>
    </Panel>
  );
}
