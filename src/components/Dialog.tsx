import { t } from "@lingui/core/macro";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Icon } from "./icons";
import "./dialog.css";

// A modal on the native <dialog>: the browser traps focus, makes the page inert and turns
// Escape into `cancel`. Mounted only while open; focus returns to where it was on close.

interface DialogProps {
  title: string;
  onClose: () => void;
  children?: ReactNode;
  actions?: ReactNode;
  wide?: boolean;
  testId?: string;
}

export function Dialog({ title, onClose, children, actions, wide, testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
      previous?.focus?.();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click's keyboard twin is Escape (native cancel)
    <dialog
      ref={ref}
      className={wide ? "dialog wide" : "dialog"}
      aria-labelledby={titleId}
      aria-modal="true"
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // The dialog element itself is only hit on the backdrop (content sits in .dialog-body).
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="dialog-body">
        <header className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" aria-label={t`Close`} onClick={onClose}>
            <Icon name="close" size={20} />
          </button>
        </header>
        <div className="dialog-content">{children}</div>
        {actions && <footer className="dialog-actions">{actions}</footer>}
      </div>
    </dialog>
  );
}
