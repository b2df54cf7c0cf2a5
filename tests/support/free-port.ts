import net from "node:net";

/**
 * Ports this process handed out already. The kernel may give the same free port
 * twice in a row (a panel once got its SFTP port as its HTTP port too, and could
 * not start): a port is handed out once per process.
 */
const handedOut = new Set<number>();

/** A port that was free on 127.0.0.1 a moment ago, and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
