import { toastSuccess } from "../../components/toastStore";

/**
 * A section's change: marked busy while it runs, a toast when it is done (a failure is told by
 * the global error handler), then the section's list is read again either way.
 */
export async function changeAndReload(
  work: () => Promise<unknown>,
  done: string,
  reload: () => Promise<unknown>,
  markBusy: (busy: boolean) => void,
): Promise<void> {
  markBusy(true);
  try {
    await work();
    toastSuccess(done);
  } catch {
    // the global handler said why
  } finally {
    markBusy(false);
  }
  await reload().catch(() => {});
}
