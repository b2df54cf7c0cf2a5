/**
 * Console bytes → text. One decoder per console in stream mode: a UTF-8 character split between
 * two frames (or a frame and a poll) is held until its last byte arrives, never shown as two
 * replacement characters.
 */
export function consoleTextStream(): (bytes: Uint8Array) => string {
  const decoder = new TextDecoder("utf-8");
  return (bytes) => decoder.decode(bytes, { stream: true });
}
