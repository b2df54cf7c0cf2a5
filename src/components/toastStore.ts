import { signal } from "@preact/signals-react";

// Toasts (spec §4): shown ~5 s, then a 0.2 s fade, then removed.

export const TOAST_MS = 5000;
export const FADE_MS = 200;

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: "error" | "success";
  text: string;
  action?: ToastAction;
  leaving: boolean;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  if (!toasts.value.some((t) => t.id === id && !t.leaving)) return;
  toasts.value = toasts.value.map((t) => (t.id === id ? { ...t, leaving: true } : t));
  setTimeout(() => {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  }, FADE_MS);
}

/** Dismisses every error toast (a wrong code's, once the right one has signed in). */
export function dismissErrors(): void {
  for (const t of toasts.value) if (t.kind === "error") dismissToast(t.id);
}

/** `persist`: stays until its action or its close button is used (an update waiting, say). */
export function showToast(
  kind: Toast["kind"],
  text: string,
  action?: ToastAction,
  opts: { persist?: boolean } = {},
): number {
  // The same message twice at once (a burst of failing calls) is shown once.
  const same = toasts.value.find((t) => t.kind === kind && t.text === text && !t.leaving);
  if (same) return same.id;
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text, action, leaving: false }];
  if (!opts.persist) setTimeout(() => dismissToast(id), TOAST_MS);
  return id;
}

export const toastError = (text: string, action?: ToastAction) => showToast("error", text, action);
export const toastSuccess = (text: string) => showToast("success", text);
