import type { WebSocket } from "ws";

/** What one socket may have waiting to be sent before its reader counts as stalled. */
export const maxBufferedBytes = 4 * 1024 * 1024;

/** The close a watcher gets when it fell too far behind: it may reconnect and resync from the ring. */
export const tooSlowClose = {
  code: 1013,
  reason: "too slow: the stream was dropped; reconnect to resync",
} as const;

/**
 * The one way the panel and the daemon send on a WebSocket: with a bound on
 * what may wait in memory for a reader that does not read. A watcher over the
 * bound is closed (1013, "try again later") rather than buffered for: a
 * console printing as fast as it can would otherwise grow the process by
 * gigabytes for one stalled socket. A client that reconnects gets the
 * console's recent lines again from the ring buffer (GET …/console).
 */
export function boundedSend(socket: WebSocket, limit = maxBufferedBytes): (text: string | Buffer) => boolean {
  let over = false;
  return (text) => {
    if (over || socket.readyState !== socket.OPEN) return false;
    const size = typeof text === "string" ? Buffer.byteLength(text) : text.length;
    if (socket.bufferedAmount + size > limit) {
      over = true;
      socket.close(tooSlowClose.code, tooSlowClose.reason);
      // A peer that does not read may not read the close frame either.
      setTimeout(() => socket.terminate(), 5000).unref();
      return false;
    }
    // Bytes go out as a text frame too: a frame's JSON, encoded once for all its watchers.
    socket.send(text, { binary: false });
    return true;
  };
}
