import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../../api/errors";
import { type FileEntry, openPath } from "../../../api/files";
import { parentPath } from "./paths";
import { isAbort, reportError } from "./reportError";

export type ListingState = "loading" | "ready" | "missing" | "failed";

export interface Listing {
  state: ListingState;
  /** The last entries loaded (kept on screen while a refresh runs). */
  entries: FileEntry[];
  /** The folder those entries belong to. */
  shownDir: string | undefined;
  refreshing: boolean;
  refresh: () => void;
}

/**
 * The entries of `dir`, loaded when it changes and on refresh. A path that turns out to be a file
 * leads to its folder (`onFile`); a missing folder says so instead of raising an error.
 */
export function useListing(serverId: string, dir: string, onFile: (parent: string) => void): Listing {
  const [state, setState] = useState<ListingState>("loading");
  const [entries, setEntries] = useState<FileEntry[]>([]);
  const [shownDir, setShownDir] = useState<string>();
  const [refreshing, setRefreshing] = useState(false);
  const [round, setRound] = useState(0);
  const onFileRef = useRef(onFile);
  onFileRef.current = onFile;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the refresh trigger
  useEffect(() => {
    const controller = new AbortController();
    setRefreshing(true);
    openPath(serverId, dir, controller.signal)
      .then((opened) => {
        if (opened.kind === "file") {
          onFileRef.current(parentPath(dir));
          return;
        }
        setEntries(opened.entries);
        setShownDir(dir);
        setState("ready");
      })
      .catch((err) => {
        if (controller.signal.aborted || isAbort(err)) return;
        const missing = isApiError(err) && err.status === 404;
        if (!missing) reportError(err);
        setEntries([]);
        setShownDir(dir);
        setState(missing ? "missing" : "failed");
      })
      .finally(() => {
        if (!controller.signal.aborted) setRefreshing(false);
      });
    return () => controller.abort();
  }, [serverId, dir, round]);

  const refresh = useCallback(() => setRound((r) => r + 1), []);
  return { state: shownDir === undefined ? "loading" : state, entries, shownDir, refreshing, refresh };
}
