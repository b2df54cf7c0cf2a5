import { useCallback, useEffect, useState } from "react";

/**
 * What a section of the server view shows of this server (its users, its OAuth clients): fetched
 * when the section mounts and again on `reload()`. `failed` tells that the last fetch failed.
 */
export function useSectionData<T>(serverId: string, fetch: (serverId: string) => Promise<T>) {
  const [data, setData] = useState<T>();
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    try {
      setData(await fetch(serverId));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [serverId, fetch]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, failed, reload };
}
