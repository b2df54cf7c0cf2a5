import { Trans } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useId } from "react";
import { Dialog } from "./Dialog";
import { ScreenIcon, type ScreenIconName } from "./screenIcons";

// A dialog that is one form: Cancel and a submit button (with its icon, if any) below, the fields
// above. The submit button sits in the dialog's footer, outside the form, and reaches it by its id.

interface FormDialogProps {
  title: string;
  testId: string;
  submitLabel: ReactNode;
  submitIcon?: ScreenIconName;
  /** Cancel in the neutral colour (the file dialogs), not the accent. */
  cancelColor?: "neutral";
  busy: boolean;
  /** What was typed cannot be sent: the submit button waits, as while busy. */
  invalid?: boolean;
  onSubmit: (e: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
}

export function FormDialog({
  title,
  testId,
  submitLabel,
  submitIcon,
  cancelColor,
  busy,
  invalid = false,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  const formId = useId();
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId}
      actions={
        <>
          <button
            type="button"
            className={cancelColor ? `btn btn-outline color-${cancelColor}` : "btn btn-outline"}
            onClick={onClose}
          >
            <Trans>Cancel</Trans>
          </button>
          <button type="submit" className="btn" form={formId} disabled={busy || invalid}>
            {submitIcon && <ScreenIcon name={submitIcon} size={18} />}
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="stack-form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Dialog>
  );
}
