/**
 * The JSON text of a socket frame, made once per frame: the same frame object
 * goes to every watcher of a server, so it is serialised once, not per socket.
 */
const serialised = new WeakMap<object, string>();

export function frameText(message: object): string {
  let text = serialised.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    serialised.set(message, text);
  }
  return text;
}
