import { t } from "@lingui/core/macro";
import { TextField } from "../../../components/TextField";
import type { EditedOperation } from "./taskTriggers";

/** One operation's fields: the type's one or two values (the template operations the editor offers). */
export function OperationFields({
  op,
  onChange,
}: {
  op: EditedOperation;
  onChange: (op: EditedOperation) => void;
}) {
  const text = (key: string) => (typeof op[key] === "string" ? (op[key] as string) : "");
  const set = (key: string, value: unknown) => onChange({ ...op, [key]: value });
  switch (op.type) {
    case "console":
      return (
        <TextField
          label={t`Line to send`}
          value={text("message")}
          onValue={(v) => set("message", v)}
          required
        />
      );
    case "command":
      return (
        <TextField
          label={t`Command line`}
          value={((op.commands as string[] | undefined) ?? [])[0] ?? ""}
          onValue={(v) => set("commands", [v])}
          required
        />
      );
    case "sleep":
      return (
        <TextField
          label={t`Duration (e.g. 30s)`}
          value={text("duration")}
          onValue={(v) => set("duration", v)}
          required
        />
      );
    case "download":
      return (
        <TextField
          label={t`URL`}
          type="url"
          value={((op.files as string[] | undefined) ?? [])[0] ?? ""}
          onValue={(v) => set("files", [v])}
          required
        />
      );
    case "writefile":
      return (
        <>
          <TextField label={t`File`} value={text("target")} onValue={(v) => set("target", v)} required />
          <TextField label={t`Text`} value={text("text")} onValue={(v) => set("text", v)} />
        </>
      );
    case "backup":
      return (
        <TextField
          label={t`Backups to keep`}
          type="number"
          min={1}
          max={100}
          value={op.keep === undefined ? "" : String(op.keep)}
          onValue={(v) => set("keep", v === "" ? undefined : Number(v))}
        />
      );
    default:
      return null;
  }
}
