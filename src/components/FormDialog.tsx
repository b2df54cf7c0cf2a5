import { Trans } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useId } from "react";
import { Dialog } from "./Dialog";
import { ScreenIcon, type ScreenIconName } from "./screenIcons";

// A dialog that is one form: Cancel and a submit button (with its icon) below, the fields above.
// The submit button sits in the dialog's footer, outside the form, and reaches it by its id.

interface FormDialogProps {
  title: string;
  testId: string;
  submitLabel: ReactNode;
  submitIcon: ScreenIconName;
  busy: boolean;
  onSubmit: (e: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
}

export function FormDialog({
  title,
  testId,
  submitLabel,
  submitIcon,
  busy,
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
          <button type="button" className="btn btn-outline" onClick={onClose}>
            <Trans>Cancel</Trans>
          </button>
          <button type="submit" className="btn" form={formId} disabled={busy}>
            <ScreenIcon name={submitIcon} size={18} />
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
