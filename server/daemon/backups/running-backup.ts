import { backupHookTimeoutDefault } from "../../templates/backup-hooks.ts";
import type { BackupHooks } from "../../templates/types.ts";
import type { ServerInstance } from "../runtime/instance.ts";

/** Whether the template asks for anything around a running server's backup. */
export function hasHooks(hooks: BackupHooks | undefined): boolean {
  return Boolean(hooks?.before?.length || hooks?.after?.length || hooks?.waitFor);
}

/**
 * Runs `work` (the archive) around the template's hooks on a running
 * server: the `before` lines sent to its console, then its `waitFor` line
 * awaited (heard from the moment before the first line went, so a fast
 * answer is not missed) for up to `timeout` seconds, then the work, then the
 * `after` lines, whatever happened (a world left with saving off would lose
 * what players do next). A server that stops meanwhile is simply no longer
 * written to: its files are still, and the backup goes on.
 */
export async function aroundHooks<T>(
  instance: ServerInstance,
  hooks: BackupHooks,
  work: () => Promise<T>,
): Promise<T> {
  const send = (line: string) => {
    try {
      instance.sendCommand(line);
      return true;
    } catch {
      return false;
    }
  };
  try {
    const heard = hooks.waitFor ? listenFor(instance, hooks.waitFor) : undefined;
    try {
      let online = true;
      for (const line of hooks.before ?? []) online = online && send(line);
      if (heard && online) await heard.within((hooks.timeout ?? backupHookTimeoutDefault) * 1000);
    } finally {
      heard?.end();
    }
    return await work();
  } finally {
    for (const line of hooks.after ?? []) if (!send(line)) break;
  }
}

/** Waits for console output to hold `text` (across chunk boundaries). */
function listenFor(instance: ServerInstance, text: string) {
  let tail = "";
  let found = false;
  let wake: (() => void) | undefined;
  const unsubscribe = instance.console.subscribe((chunk) => {
    if (found) return;
    tail = (tail + chunk.data.toString("utf8")).slice(-(text.length + 64 * 1024));
    if (tail.includes(text)) {
      found = true;
      wake?.();
    }
  });
  return {
    end: unsubscribe,
    within(ms: number): Promise<void> {
      if (found) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          clearInterval(watch);
          reject(new Error(`the server did not write "${text}" within ${Math.round(ms / 1000)} s`));
        }, ms);
        wake = () => {
          clearTimeout(timer);
          clearInterval(watch);
          resolve();
        };
        // A server that stopped will not answer, and its files are still: no need to wait.
        const watch = setInterval(() => {
          if (!instance.status().running) wake?.();
        }, 250);
      });
    },
  };
}
