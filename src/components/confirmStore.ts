import { signal } from "@preact/signals-react";
import type { IconName } from "./icons";

// Confirm dialog (spec §2.3): title required, optional body; confirm and cancel actions with
// text, icon, colour. Defaults Confirm/apply/primary and Cancel/close/error. Without a title or
// a confirm action the request is ignored.

export type ActionColor = "primary" | "error" | "success" | "neutral";

export interface ConfirmAction {
  /** Undefined text means the translated default ("Confirm" / "Cancel"). */
  text?: string;
  icon?: IconName;
  color?: ActionColor;
  action?: () => void;
}

export interface ConfirmOptions {
  title?: string;
  body?: string;
  confirm?: ConfirmAction;
  cancel?: ConfirmAction;
}

export interface ResolvedConfirm {
  title: string;
  body?: string;
  confirm: Required<Pick<ConfirmAction, "icon" | "color" | "action">> & { text?: string };
  cancel: Required<Pick<ConfirmAction, "icon" | "color">> & { text?: string; action?: () => void };
}

export function resolveConfirm(o: ConfirmOptions | undefined): ResolvedConfirm | null {
  if (!o?.title || !o.confirm?.action) return null;
  return {
    title: o.title,
    body: o.body,
    confirm: {
      text: o.confirm.text,
      icon: o.confirm.icon ?? "apply",
      color: o.confirm.color ?? "primary",
      action: o.confirm.action,
    },
    cancel: {
      text: o.cancel?.text,
      icon: o.cancel?.icon ?? "close",
      color: o.cancel?.color ?? "error",
      action: o.cancel?.action,
    },
  };
}

export const pendingConfirm = signal<ResolvedConfirm | null>(null);

/** Show the dialog; false when ignored. */
export function openConfirm(o: ConfirmOptions): boolean {
  const resolved = resolveConfirm(o);
  if (resolved) pendingConfirm.value = resolved;
  return !!resolved;
}

/** Promise form: true on confirm, false on cancel or dismiss. */
export function confirmAsync(
  o: Omit<ConfirmOptions, "confirm"> & { confirm?: Omit<ConfirmAction, "action"> },
) {
  return new Promise<boolean>((resolve) => {
    openConfirm({
      ...o,
      confirm: { ...o.confirm, action: () => resolve(true) },
      cancel: { ...o.cancel, action: () => resolve(false) },
    }) || resolve(false);
  });
}
