import { t } from "@lingui/core/macro";
import { pendingConfirm } from "./confirmStore";
import { Dialog } from "./Dialog";
import { Icon } from "./icons";

export function ConfirmDialog() {
  const c = pendingConfirm.value;
  if (!c) return null;
  const cancel = () => {
    pendingConfirm.value = null;
    c.cancel.action?.();
  };
  const confirm = () => {
    pendingConfirm.value = null;
    c.confirm.action();
  };
  return (
    <Dialog
      title={c.title}
      onClose={cancel}
      testId="confirm-dialog"
      actions={
        <>
          <button type="button" className={`btn btn-outline color-${c.cancel.color}`} onClick={cancel}>
            <Icon name={c.cancel.icon} size={18} />
            {c.cancel.text ?? t`Cancel`}
          </button>
          <button type="button" className={`btn color-${c.confirm.color}`} onClick={confirm}>
            <Icon name={c.confirm.icon} size={18} />
            {c.confirm.text ?? t`Confirm`}
          </button>
        </>
      }
    >
      {c.body && <p className="pre-line">{c.body}</p>}
    </Dialog>
  );
}
