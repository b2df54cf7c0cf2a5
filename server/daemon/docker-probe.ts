import http from "node:http";
import net from "node:net";

/** True when a Docker engine answers `/_ping` on its socket within the timeout. */
export function dockerAnswers(socketPath = "/var/run/docker.sock", timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    // The socket made here rather than by the HTTP agent: the agent looks whether the request's host
    // ("localhost") is an IP address, which runs Node's IPv6 pattern, and the panel that probed at
    // start kept its compiled form (0.1 MiB) idle.
    const createConnection = () => net.connect(socketPath);
    const req = http.get({ createConnection, path: "/_ping" }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    // Set on the request: the `timeout` option is the agent's.
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve(false);
    });
    req.on("error", () => resolve(false));
  });
}
