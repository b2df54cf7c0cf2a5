import { type FormEvent, useState } from "react";

/**
 * The submit of a form that creates an account and signs in: once tried, the fields say what is
 * wrong (`tried`); `send` runs only while every field is valid, and once at a time. A failed
 * `send` (its error already told) lets the user try again; a successful one leaves the form busy,
 * since the screen is being left.
 */
export function useFormSubmit(valid: boolean, send: () => Promise<void>) {
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (busy || !valid) return;
    setBusy(true);
    try {
      await send();
    } catch {
      setBusy(false);
    }
  };
  return { tried, busy, submit };
}
