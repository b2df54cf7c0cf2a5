/**
 * The JSON text of a socket frame as UTF-8 bytes, made once per frame: the
 * same frame object goes to every watcher of a server, so it is serialised and
 * encoded once, not per socket (a string handed to each socket would be
 * encoded anew for every one of them). Sockets send it as a text frame.
 */
const serialised = new WeakMap<object, Buffer>();

export function frameBytes(message: object): Buffer {
  let bytes = serialised.get(message);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(message));
    serialised.set(message, bytes);
  }
  return bytes;
}
