import { useCallback, useEffect, useRef, useState } from "react";
import { uploadFile } from "../../../api/files";
import { joinPath } from "./paths";
import { isAbort, reportError } from "./reportError";

export type UploadState = "waiting" | "sending" | "done" | "failed" | "cancelled";

export interface Upload {
  id: number;
  name: string;
  /** The folder it goes to. */
  dir: string;
  size: number;
  /** Bytes sent so far, in 64 KiB steps. */
  sent: number;
  state: UploadState;
}

interface Job extends Upload {
  file: File;
  controller: AbortController;
}

/** Two at a time: a long upload does not hold up the small ones behind it, nor floods the link. */
const AT_ONCE = 2;
let nextId = 1;

/**
 * A queue of uploads with their progress. `onStored` runs after each file is stored, with the
 * folder it went to (the listing refreshes if that folder is shown).
 */
export function useUploads(serverId: string, onStored: (dir: string) => void) {
  const jobs = useRef<Job[]>([]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const onStoredRef = useRef(onStored);
  onStoredRef.current = onStored;

  const publish = useCallback(() => {
    setUploads(jobs.current.map(({ file: _f, controller: _c, ...shown }) => shown));
  }, []);

  const update = useCallback(
    (id: number, change: Partial<Upload>) => {
      const job = jobs.current.find((j) => j.id === id);
      if (job) Object.assign(job, change);
      publish();
    },
    [publish],
  );

  const pump = useCallback(() => {
    const sending = jobs.current.filter((j) => j.state === "sending").length;
    const next = jobs.current.filter((j) => j.state === "waiting").slice(0, Math.max(0, AT_ONCE - sending));
    for (const job of next) {
      job.state = "sending";
      uploadFile(serverId, joinPath(job.dir, job.name), job.file, {
        signal: job.controller.signal,
        onProgress: (sent) => update(job.id, { sent }),
      })
        .then(() => {
          update(job.id, { state: "done", sent: job.size });
          onStoredRef.current(job.dir);
        })
        .catch((err) => {
          if (isAbort(err) || job.controller.signal.aborted) {
            update(job.id, { state: "cancelled" });
            return;
          }
          reportError(err);
          update(job.id, { state: "failed" });
        })
        .finally(pump);
    }
    if (next.length) publish();
  }, [serverId, update, publish]);

  const add = useCallback(
    (files: File[], dir: string) => {
      for (const file of files) {
        jobs.current.push({
          id: nextId++,
          name: file.name,
          dir,
          size: file.size,
          sent: 0,
          state: "waiting",
          file,
          controller: new AbortController(),
        });
      }
      publish();
      pump();
    },
    [publish, pump],
  );

  const cancel = useCallback(
    (id: number) => {
      const job = jobs.current.find((j) => j.id === id);
      if (!job || (job.state !== "waiting" && job.state !== "sending")) return;
      job.controller.abort();
      if (job.state === "waiting") update(id, { state: "cancelled" });
    },
    [update],
  );

  /** Forgets the finished ones (done, failed, cancelled). */
  const clearFinished = useCallback(() => {
    jobs.current = jobs.current.filter((j) => j.state === "waiting" || j.state === "sending");
    publish();
  }, [publish]);

  // Leaving the server view stops what is still running.
  useEffect(
    () => () => {
      for (const job of jobs.current) job.controller.abort();
    },
    [],
  );

  return { uploads, add, cancel, clearFinished };
}
