import { t } from "@lingui/core/macro";
import { BaseIcon } from "./glyph";
import { dismissToast, toasts } from "./toastStore";
import "./toasts.css";

export function Toasts() {
  const list = toasts.value;
  return (
    <div className="toasts">
      {list.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}${toast.leaving ? " leaving" : ""}`}
          role={toast.kind === "error" ? "alert" : "status"}
          data-testid="toast"
        >
          <BaseIcon name={toast.kind === "error" ? "alert" : "apply"} size={20} />
          <span className="toast-text">{toast.text}</span>
          {toast.action && (
            <button
              type="button"
              className="btn-text"
              onClick={() => {
                toast.action!.run();
                dismissToast(toast.id);
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            className="icon-btn"
            aria-label={t`Dismiss`}
            onClick={() => dismissToast(toast.id)}
          >
            <BaseIcon name="close" size={18} />
          </button>
        </div>
      ))}
    </div>
  );
}
