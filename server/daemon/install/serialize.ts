/**
 * One at a time per key: two servers installing Java 21 on the same node
 * must not unpack into the same binaries folder at once (the Go panel holds
 * a mutex for the same reason).
 */
const queues = new Map<string, Promise<unknown>>();

export function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(work);
  queues.set(key, next);
  void next
    .finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    })
    .catch(() => {});
  return next;
}
